import Foundation
import Synchronization

/// How many runs of pipesh go at once across all sessions (twice the processors, at least 4): a
/// flood of sessions queues, first come first served, rather than starting a process each. A
/// waiting run that is cancelled (a newer edit) leaves the queue.
final class RunSlots: Sendable {
  static let shared = RunSlots(count: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

  private struct State {
    /// Slots no run holds.
    var free: Int
    /// Runs waiting for a slot, in order, by ticket.
    var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    var lastTicket: UInt64 = 0
    /// Tickets cancelled before they were queued.
    var cancelled: Set<UInt64> = []
  }

  private let state: Mutex<State>

  init(count: Int) {
    state = Mutex(State(free: count))
  }

  /// Waits for a slot; throws `CancellationError` if the task is cancelled while waiting.
  func acquire() async throws {
    let ticket = state.withLock { state -> UInt64? in
      if state.free > 0 {
        state.free -= 1
        return nil
      }
      state.lastTicket += 1
      return state.lastTicket
    }
    guard let ticket else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let now = state.withLock { state -> Bool? in
          if state.cancelled.remove(ticket) != nil { return false }
          if state.free > 0 {
            state.free -= 1
            return true
          }
          state.waiting.append((ticket, continuation))
          return nil
        }
        switch now {
        case true?: continuation.resume()
        case false?: continuation.resume(throwing: CancellationError())
        case nil: break
        }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        if let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) {
          return state.waiting.remove(at: index).continuation
        }
        state.cancelled.insert(ticket)
        return nil
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Gives a slot back: to the first waiting run, if any.
  func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard !state.waiting.isEmpty else {
        state.free += 1
        return nil
      }
      return state.waiting.removeFirst().continuation
    }
    next?.resume()
  }
}
