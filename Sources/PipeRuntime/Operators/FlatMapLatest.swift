import AsyncAlgorithms
import Locking
import PipeSema

extension Operators {
  /// `flatMapLatest { PIPELINE }`: a pipeline per element, each new element cancelling the last.
  enum FlatMapLatest {
    static let entry = Operator(
      OperatorSignature(
        "flatMapLatest", .operator, usage: "flatMapLatest { PIPELINE }",
        summary:
          "runs the pipeline for each element ($0 in its arguments); a new element cancels the pipeline of the one before",
        parameters: [.positional("body", .pipeline, "a pipeline; $0 in its arguments stands for the element")],
        example: "timer 2.5 | take 2 | flatMapLatest { timer 1 | take ($0 + 3) } | print time: true",
        implementation: "flatMapLatest(_:)", typing: Typing.body),
      build: { input in
        ValueSequence(ShieldedFlatMapLatest(upstream: input.upstream, body: try ElementBody(input, supersedes: true)))
      })
  }
}

/// swift-async-algorithms 1.1.4's `flatMapLatest(_:)`, worked around bugs that leave a job
/// running for ever:
/// - it records an element's task only after starting it, outside its lock: a pipeline that
///   ends before that is taken as still running, and when the upstream then ends flatMapLatest
///   waits for it for ever. So the ends of the upstream and of the latest element's pipeline are
///   watched here (`LatestEnds`): once both have ended nothing more can come, and a consumer still
///   waiting is let go (its question is cancelled, which flatMapLatest answers with `nil`).
/// - cancelled while a consumer waits in `next()` (`zip` ending its other side), or with its
///   iterator dropped, it leaves its tasks waiting. So, as for `debounce`, its `next()` runs in a
///   task nobody else cancels; a cancelled or departed consumer stops the upstream and the
///   elements' pipelines instead (`UpstreamStop`) and asks it to its end from a task of its own,
///   which then ends every task of it.
/// - `innerTaskStarted` writes its state outside its lock: on the real clock an element's task
///   that runs at once can lose its wait for demand and then wait for ever, even once a newer
///   element cancels it. So each element's pipeline is let go of when a newer element comes
///   (`ClosableIterator`): its nodes end then, whatever becomes of the task. (On the virtual clock
///   every task runs on one thread, and the element's task starts only after that write.)
struct ShieldedFlatMapLatest: AsyncSequence, Sendable {
  typealias Element = Value
  let upstream: ValueSequence
  let body: ElementBody

  func makeAsyncIterator() -> Iterator {
    let stop = UpstreamStop()
    let ends = LatestEnds()
    let body = self.body
    let upstream = Watched(base: ValueSequence(StoppableUpstream(base: upstream, stop: stop))) { finished in
      ends.upstreamEnded()
      if finished, stop.isStopped { throw UpstreamStopped() }
    }
    let current = Locked<ClosableIterator?>(nil)
    let latest = upstream.flatMapLatest { element in
      let generation = ends.started()
      let pipeline = ClosableIterator(body.sequence(for: element).makeAsyncIterator())
      current.withLock { current in
        current?.close()
        current = pipeline
      }
      let stoppable = ValueSequence(StoppableUpstream(base: ValueSequence(pipeline), stop: stop))
      return ValueSequence(Watched(base: stoppable) { _ in ends.ended(generation) })
    }
    return Iterator(
      latest: IteratorCell(ValueSequence(latest).makeAsyncIterator()), stop: stop, ends: ends, current: current)
  }

  final class Iterator: AsyncIteratorProtocol {
    private let latest: IteratorCell
    private let stop: UpstreamStop
    private let ends: LatestEnds
    private let current: Locked<ClosableIterator?>
    private var ended = false

    init(latest: IteratorCell, stop: UpstreamStop, ends: LatestEnds, current: Locked<ClosableIterator?>) {
      self.latest = latest
      self.stop = stop
      self.ends = ends
      self.current = current
    }

    func next() async throws -> Value? {
      guard !ended else { return nil }
      guard !Task.isCancelled else {
        finish()
        return nil
      }
      let latest = latest
      let answer = Task { try await latest.next() }
      ends.whenBothEnded { answer.cancel() }
      defer { ends.whenBothEnded(nil) }
      do {
        let value = try await withTaskCancellationHandler {
          try await answer.value
        } onCancel: { [stop] in
          stop.stop()
        }
        if Task.isCancelled {
          finish()
          return nil
        }
        if value == nil { ended = true }
        return value
      } catch {
        if Task.isCancelled {
          finish()
          return nil
        }
        ended = true
        throw error
      }
    }

    /// Stops the upstream and the elements' pipelines, and asks flatMapLatest to its end from a
    /// task of its own, so that its tasks end.
    private func finish() {
      ended = true
      stop.stop()
      current.withLock { $0?.close() }
      let latest = latest
      Task {
        while (try? await latest.next()) != nil {}
      }
    }

    deinit {
      if !ended { finish() }
    }
  }
}

/// Why flatMapLatest's upstream ended when it was stopped: an error, so that flatMapLatest ends
/// whatever it believes of its element's task.
struct UpstreamStopped: Error {}

/// Whether flatMapLatest's upstream and its latest element's pipeline have ended; once both
/// have, it calls what the waiting consumer left (`whenBothEnded`).
final class LatestEnds: Sendable {
  private struct State {
    var upstreamEnded = false
    var latest = 0
    var latestEnded = true
    var action: (@Sendable () -> Void)?

    var bothEnded: Bool { upstreamEnded && latestEnded }
  }

  private let state = Locked(State())

  func upstreamEnded() {
    update { $0.upstreamEnded = true }
  }

  /// A new element's pipeline starts; returns its generation.
  func started() -> Int {
    state.withLock { state in
      state.latest += 1
      state.latestEnded = false
      return state.latest
    }
  }

  /// An element's pipeline ended; only the latest one's end counts.
  func ended(_ generation: Int) {
    update { state in
      if generation == state.latest { state.latestEnded = true }
    }
  }

  /// Calls `action` once both have ended (at once if they have); nil forgets it.
  func whenBothEnded(_ action: (@Sendable () -> Void)?) {
    update { $0.action = action }
  }

  private func update(_ change: (inout State) -> Void) {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      change(&state)
      guard state.bothEnded, let action = state.action else { return nil }
      state.action = nil
      return action
    }
    action?()
  }
}

/// A sequence that calls `ended` when it ends (`true` when it finished, `false` when it threw);
/// `ended` may throw instead of finishing.
struct Watched: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let ended: @Sendable (_ finished: Bool) throws -> Void

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), ended: ended) }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let ended: @Sendable (Bool) throws -> Void

    mutating func next() async throws -> Value? {
      do {
        guard let value = try await base.next() else {
          try ended(true)
          return nil
        }
        return value
      } catch {
        try ended(false)
        throw error
      }
    }
  }
}

/// An element's pipeline that flatMapLatest's task asks, which can be let go of from outside: once
/// closed, its iterator (and so every node of the pipeline) is released, at once or when the
/// question in flight is answered, and it answers `nil` after.
final class ClosableIterator: AsyncSequence, Sendable {
  typealias Element = Value
  private let state: Locked<(iterator: ValueSequence.Iterator?, asking: Bool, closed: Bool)>

  init(_ iterator: ValueSequence.Iterator) {
    state = Locked((HandOver(iterator).iterator, false, false))
  }

  func makeAsyncIterator() -> Iterator { Iterator(owner: self) }

  struct Iterator: AsyncIteratorProtocol {
    let owner: ClosableIterator

    func next() async throws -> Value? { try await owner.next() }
  }

  private func next() async throws -> Value? {
    let taken = state.withLock { state -> HandOver? in
      guard !state.closed, !state.asking, let iterator = state.iterator else { return nil }
      state.asking = true
      return HandOver(iterator)
    }
    guard var iterator = taken?.iterator else { return nil }
    var value: Value?
    do {
      value = try await iterator.next()
    } catch {
      put(nil)
      throw error
    }
    // An ended pipeline is let go of at once: its nodes end as they would in flatMapLatest's task.
    put(value == nil ? nil : HandOver(iterator))
    return value
  }

  private func put(_ kept: HandOver?) {
    let released = state.withLock { state -> HandOver? in
      state.asking = false
      if state.closed { return kept }
      state.iterator = kept?.iterator
      return nil
    }
    _ = released
  }

  func close() {
    // Released outside the lock: the nodes end as their iterators go.
    let released = state.withLock { state -> HandOver? in
      state.closed = true
      guard !state.asking, let iterator = state.iterator else { return nil }
      state.iterator = nil
      return HandOver(iterator)
    }
    _ = released
  }

  /// Moves an iterator across the lock: only one task asks it at a time.
  private struct HandOver: @unchecked Sendable {
    let iterator: ValueSequence.Iterator

    init(_ iterator: ValueSequence.Iterator) {
      self.iterator = iterator
    }
  }
}
