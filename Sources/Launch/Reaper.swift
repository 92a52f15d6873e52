import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ChildProcess {
  /// Waits for it to end without holding a thread of the caller's: the process's one reaper thread
  /// waits for every child and hands each ending to whoever waits for it. That thread takes every
  /// child of the process (`waitpid(-1)`): a program that waits so waits for no child another way
  /// (pipesh-serve, whose children are its runs).
  public func termination() async -> Termination {
    await withCheckedContinuation { continuation in Reaper.shared.wait(for: pid, continuation) }
  }
}

/// The one thread that waits for the process's children: no thread per child, and an ending that
/// comes before its waiter is kept for it.
final class Reaper: Sendable {
  static let shared = Reaper()

  /// Who waits for which process, and the endings that came first.
  private struct State {
    var waiting: [pid_t: CheckedContinuation<ChildProcess.Termination, Never>] = [:]
    var ended: [pid_t: ChildProcess.Termination] = [:]
  }

  private let state = Mutex(State())
  /// Signalled when a waiter comes, so that a thread that found no child waits again.
  private let waiterCame = DispatchSemaphore(value: 0)

  /// A thread of its own: a serial queue's (an overcommitting one, so it never holds up a thread
  /// Swift's tasks run on). Not Foundation's `Thread`: pipesh links FoundationEssentials alone,
  /// which a small address space (`ulimit -v`) still has room for.
  private init() {
    DispatchQueue(label: "pipesh.reaper").async { [self] in reap() }
  }

  func wait(for pid: pid_t, _ continuation: CheckedContinuation<ChildProcess.Termination, Never>) {
    let termination = state.withLock { state -> ChildProcess.Termination? in
      if let termination = state.ended.removeValue(forKey: pid) { return termination }
      state.waiting[pid] = continuation
      return nil
    }
    if let termination {
      continuation.resume(returning: termination)
    } else {
      waiterCame.signal()
    }
  }

  private func reap() {
    while true {
      var status: Int32 = 0
      let pid = waitpid(-1, &status, 0)
      if pid == -1 {
        // No child now (ECHILD): wait for a waiter, whose child has been started by then.
        if errno == ECHILD { waiterCame.wait() }
        continue
      }
      guard let termination = ChildProcess.Termination(waitStatus: status) else { continue }
      let waiter = state.withLock { state -> CheckedContinuation<ChildProcess.Termination, Never>? in
        guard let waiter = state.waiting.removeValue(forKey: pid) else {
          state.ended[pid] = termination
          return nil
        }
        return waiter
      }
      waiter?.resume(returning: termination)
    }
  }
}
