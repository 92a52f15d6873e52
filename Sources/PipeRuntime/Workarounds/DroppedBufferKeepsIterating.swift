import PipeSema

// swift-async-algorithms 1.1.4: `buffer(policy:)` dropped before its end.
//
// What AA does: the buffer's producer task iterates the upstream into the buffer and, when it is
// full (or after each element with `.bounded`), waits for demand. Only a consumer's `next()`, or
// that consumer's task being cancelled inside `next()`, resumes or stops it: dropping the
// iterator does neither, so a consumer that stops asking (a `take` that is done, a job's node
// cancelled) leaves the task waiting forever, holding the upstream iterator and the job.
//
// Reproduction: `AsyncAlgorithmsCanaryTests.bufferDroppedBeforeItsEndKeepsItsUpstream` (one
// element out of `buffer(policy: .bounded(1))`, then the iterator is dropped: the upstream
// iterator is never released).
//
// Workaround: `CancellingWhenDropped`, around `buffer` and `delay` (which stamps arrivals in an
// unbounded buffer): when its iterator is dropped before the end, it asks the buffer once more
// from a cancelled task, and the buffer's cancellation handler stops its producer task.
//
// To delete: when the canary reports that the known issue was not recorded, drop the
// `CancellingWhenDropped(base:)` wrappers in `Operators/Buffer.swift` and `Operators/Delay.swift`,
// delete this file, and run the suite (`thousandJobsCancelledLeaveStatsAtZero` and the
// CancellationTests count what is left allocated).

/// Wraps an operator whose iterator leaves a task of its own running when it is dropped before
/// its end (swift-async-algorithms' `buffer` producer keeps iterating, or waiting, until the
/// consumer's task is cancelled inside `next()`). When the consumer stops asking, this asks once
/// more from a cancelled task: the operator's cancellation handler then stops its task, and the
/// upstream iterators it held are released.
struct CancellingWhenDropped<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Value {
  typealias Element = Value
  let base: Base

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  final class Iterator: AsyncIteratorProtocol {
    private var base: Base.AsyncIterator?

    init(base: Base.AsyncIterator) {
      self.base = base
    }

    func next() async throws -> Value? {
      do {
        let value = try await base?.next()
        if value == nil { base = nil }
        return value
      } catch {
        // Kept: the error may be the wrapped operator's own (`delay`'s cancelled sleep) while the
        // buffer's task still waits on its upstream, so a dropped iterator is stopped as above.
        throw error
      }
    }

    deinit {
      guard let base else { return }
      let handOver = HandOver(base)
      let task = TaskBook.making(.bufferWorkaround) {
        Task {
          // The task may start before `cancel()` below lands: wait for it, so `next()` runs cancelled
          // (asked uncancelled, a buffer would just hand over an element it holds).
          let cancelled = ContinuationBox()
          await withTaskCancellationHandler {
            await withUnsafeContinuation { cancelled.store($0) }
          } onCancel: {
            cancelled.resume()
          }
          var iterator = handOver.iterator
          _ = try? await iterator.next()
        }
      }
      task.cancel()
    }
  }

  /// Moves the dropped iterator into the task that stops it.
  private struct HandOver: @unchecked Sendable {
    // @unchecked: the iterator is handed over from a deinit; nothing else holds it any more.
    let iterator: Base.AsyncIterator

    init(_ iterator: Base.AsyncIterator) {
      self.iterator = iterator
    }
  }
}
