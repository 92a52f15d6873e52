import Locking

/// A hand-over from a thread that resumes a continuation to the task that awaited it, made
/// visible to ThreadSanitizer. The concurrency runtime is not instrumented: when the awaiting
/// task goes on at once on another thread, ThreadSanitizer sees no order between the resumer's
/// last touch of the task's frame (inside `resume`) and the task's next use of that memory, and
/// reports a race. So the resume happens under a pthread lock, and the task takes that lock once
/// it is back: the resumer's `resume` is then ordered before everything the task does next.
package struct VisibleResume: Sendable {
  private let lock = Locked(())

  package init() {}

  /// Resumes `continuation` under the lock.
  package func resume<T: Sendable>(_ continuation: UnsafeContinuation<T, Never>, returning value: T) {
    lock.withLock { _ in continuation.resume(returning: value) }
  }

  /// Called by the task once it is back: waits until the resumer is out of `resume`.
  package func received() {
    lock.withLock { _ in }
  }
}
