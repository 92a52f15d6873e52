import Locking
import PipeSema

// Shared by the workarounds that stop an upstream from outside an AA operator
// (`DebounceCancelledBeforeDemand.swift`): an upstream asked from a task that can be cancelled,
// and answered `nil` once stopped, which ends the operator the way a finished upstream does.

/// Whether an upstream may still be asked, and the tasks asking it now.
final class UpstreamStop: Sendable {
  private let machine = Locked(UpstreamStopStateMachine())

  /// Starts `ask` unless stopped; the id is for `end`.
  func begin(_ ask: @escaping @Sendable () async throws -> Value?) -> (Int, Task<Value?, any Error>)? {
    guard let id = machine.withLock({ $0.begin() }) else { return nil }
    let task = TaskBook.making(.upstreamStop) { Task { try await ask() } }
    if case .cancel(let tasks) = machine.withLock({ $0.started(id, task) }) {
      for task in tasks { task.cancel() }
    }
    return (id, task)
  }

  /// After the upstream answered; false when stopped meanwhile.
  func end(_ id: Int) -> Bool {
    machine.withLock { $0.end(id) }
  }

  /// Stops for good, cancelling the questions in flight.
  func stop() {
    if case .cancel(let tasks) = machine.withLock({ $0.stop() }) {
      for task in tasks { task.cancel() }
    }
  }
}

/// The states of an `UpstreamStop`; holds no lock and causes no effect.
struct UpstreamStopStateMachine {
  typealias Asking = Task<Value?, any Error>

  enum Action {
    case cancel([Asking])
    case none
  }

  private var stopped = false
  /// The questions begun and not ended; nil until their task is made.
  private var asking: [Int: Asking?] = [:]
  private var lastID = 0

  /// A question may begin: its id, or nil once stopped.
  mutating func begin() -> Int? {
    guard !stopped else { return nil }
    lastID += 1
    asking[lastID] = .some(nil)
    return lastID
  }

  /// The task asking question `id` was made; it is cancelled at once when stopped meanwhile.
  mutating func started(_ id: Int, _ task: Asking) -> Action {
    guard !stopped, asking[id] != nil else { return .cancel([task]) }
    asking[id] = task
    return .none
  }

  /// Question `id` was answered: whether the answer may be passed on.
  mutating func end(_ id: Int) -> Bool {
    asking[id] = nil
    return !stopped
  }

  mutating func stop() -> Action {
    stopped = true
    defer { asking = [:] }
    return .cancel(asking.values.compactMap { $0 })
  }
}

/// An upstream asked from a task `UpstreamStop` can cancel, and ended (`nil`) once stopped.
struct StoppableUpstream: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let stop: UpstreamStop

  func makeAsyncIterator() -> Iterator {
    Iterator(base: IteratorCell(base.makeAsyncIterator()), stop: stop)
  }

  struct Iterator: AsyncIteratorProtocol {
    let base: IteratorCell
    let stop: UpstreamStop

    mutating func next() async throws -> Value? {
      let base = base
      guard let (id, asking) = stop.begin({ try await base.next() }) else { return nil }
      let value: Value?
      do {
        value = try await withTaskCancellationHandler {
          try await asking.value
        } onCancel: {
          asking.cancel()
        }
      } catch {
        guard stop.end(id) else { return nil }
        throw error
      }
      return stop.end(id) ? value : nil
    }
  }
}

/// An iterator that tasks take turns with: one `next()` at a time, each awaited before the next.
final class IteratorCell: @unchecked Sendable {
  // @unchecked: only one `next()` runs at a time, and each starts after the previous one ended.
  private var iterator: ValueSequence.Iterator

  init(_ iterator: ValueSequence.Iterator) {
    self.iterator = iterator
  }

  func next() async throws -> Value? {
    try await iterator.next()
  }
}
