import AsyncAlgorithms
import Locking
import PipeSema

extension Operators {
  /// `debounce`: emits an element once no newer one came for the interval.
  enum Debounce {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          ValueSequence(
            ShieldedDebounce(upstream: input.upstream, interval: interval, clock: input.clock))
        })
    }
  }
}

/// swift-async-algorithms' `debounce(for:clock:)`, never cancelled from outside.
///
/// In 1.1.4, when the task calling the debounce's `next()` is cancelled before that call has
/// registered its demand (the consumer was cancelled between two elements: `zip` ending the
/// other side, say), the debounce moves to `finished` without ending its iteration task; that
/// task then waits for demand forever and keeps the upstream, and so the job, alive. So here:
/// - the debounce's `next()` runs in a task of its own that nobody cancels;
/// - a cancelled consumer stops the upstream instead: `StoppableUpstream` asks the real upstream
///   from a task it can cancel, and once stopped answers `nil`, which ends the debounce the way a
///   finished upstream does (its iteration task ends, its clock task too).
struct ShieldedDebounce: AsyncSequence, Sendable {
  typealias Element = Value
  let upstream: ValueSequence
  let interval: Duration
  let clock: PipeClock

  func makeAsyncIterator() -> Iterator {
    let stop = UpstreamStop()
    let debounced = StoppableUpstream(base: upstream, stop: stop).debounce(for: interval, clock: clock)
    return Iterator(debounced: IteratorCell(ValueSequence(debounced).makeAsyncIterator()), stop: stop)
  }

  struct Iterator: AsyncIteratorProtocol {
    let debounced: IteratorCell
    let stop: UpstreamStop

    mutating func next() async throws -> Value? {
      guard !Task.isCancelled else {
        stop.stop()
        return nil
      }
      let debounced = debounced
      let answer = Task { try await debounced.next() }
      let value = try await withTaskCancellationHandler {
        try await answer.value
      } onCancel: { [stop] in
        stop.stop()
      }
      // A debounce whose upstream was stopped hands over what it held; a cancelled consumer
      // does not want it.
      return Task.isCancelled ? nil : value
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

/// Whether an upstream may still be asked, and the tasks asking it now (the debounce's one
/// upstream; flatMapLatest's upstream and its elements' pipelines).
final class UpstreamStop: Sendable {
  private let state = Locked<(stopped: Bool, asking: [Int: Task<Value?, any Error>], lastID: Int)>((false, [:], 0))

  /// Starts `ask` unless stopped; the id is for `end`.
  func begin(_ ask: @escaping @Sendable () async throws -> Value?) -> (Int, Task<Value?, any Error>)? {
    state.withLock { state in
      if state.stopped { return nil }
      let task = Task { try await ask() }
      state.lastID += 1
      state.asking[state.lastID] = task
      return (state.lastID, task)
    }
  }

  /// After the upstream answered; false when stopped meanwhile.
  func end(_ id: Int) -> Bool {
    state.withLock { state in
      state.asking[id] = nil
      return !state.stopped
    }
  }

  var isStopped: Bool { state.withLock { $0.stopped } }

  /// Stops for good, cancelling the questions in flight.
  func stop() {
    let asking = state.withLock { state -> [Task<Value?, any Error>] in
      state.stopped = true
      defer { state.asking = [:] }
      return Array(state.asking.values)
    }
    for task in asking { task.cancel() }
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
