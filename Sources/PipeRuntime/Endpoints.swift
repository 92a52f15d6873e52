import Locking
import PipeEvaluator
import PipeSema

/// `stream NAME`: an `AsyncStream` and its continuation. `send` yields (never waits: a full buffer
/// drops by the policy), `close` finishes. An `AsyncStream` allows one consumer (a second one
/// iterating at once traps in the standard library), so the first consumer claims it and any
/// other fails its job with an error instead.
public final class StreamEndpoint: Sendable {
  let name: String
  public let buffering: StreamBuffering
  private let continuation: AsyncStream<Value>.Continuation
  /// The stream until its consumer takes it, then the job that did. The stream is handed over,
  /// not kept: an `AsyncStream` ends (and `yield` says so) only once nothing holds it or its
  /// iterator.
  private let state: Locked<(stream: AsyncStream<Value>?, consumer: Int?)>

  init(name: String, buffering: StreamBuffering) {
    self.name = name
    self.buffering = buffering
    let policy: AsyncStream<Value>.Continuation.BufferingPolicy =
      switch buffering {
      case .unbounded: .unbounded
      case .newest(let count): .bufferingNewest(count)
      case .oldest(let count): .bufferingOldest(count)
      }
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: policy)
    self.continuation = continuation
    state = Locked((stream, nil))
  }

  /// What one `send` of a value did.
  public enum Yielded: Sendable, Equatable {
    case enqueued
    /// The buffer was full: this value was dropped (the newest one or the oldest buffered).
    case dropped(Value)
    /// The stream has ended (closed, or its consumer stopped): nothing takes the value.
    case ended
  }

  /// Yields `value`; never waits.
  public func yield(_ value: Value) -> Yielded {
    switch continuation.yield(value) {
    case .enqueued: .enqueued
    case .dropped(let dropped): .dropped(dropped)
    case .terminated: .ended
    @unknown default: .ended
    }
  }

  func finish() { continuation.finish() }

  /// The elements, for the one consumer `stage` of job `jobID`; a second consumer gets an error.
  func elements(for jobID: Int, stage: String, nodeID: Int) -> ValueSequence {
    let claim = state.withLock { state -> (stream: AsyncStream<Value>?, consumer: Int?) in
      guard let stream = state.stream else { return (nil, state.consumer) }
      state = (nil, jobID)
      return (stream, nil)
    }
    if let stream = claim.stream { return ValueSequence(stream) }
    let first = claim.consumer ?? jobID
    let whose = first == jobID ? "this job" : "job \(first)"
    return ValueSequence(
      FailSequence(
        error: PipelineError(
          stage: stage,
          message:
            "stream '\(name)' already has its consumer (\(whose)): an AsyncStream allows one; use 'channel \(name)' "
            + "(consumers split the values) or share a fragment (every consumer sees each)",
          nodeID: nodeID)))
  }
}

/// `subject NAME initial: V`: pipesh's current value, as Combine's `CurrentValueSubject` seen
/// through `.values`. Each consumer gets an `AsyncStream` that keeps only the newest value: the
/// current value when it starts, then each value sent; one that falls behind gets the newest, as
/// a `CurrentValueSubject`'s subscriber with no demand does.
public final class SubjectEndpoint: Sendable {
  private struct State {
    var current: Value
    var consumers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextConsumer = 0
    var finished = false
  }

  private let state: Locked<State>

  init(initial: Value) {
    state = Locked(State(current: initial))
  }

  /// The value a new consumer gets first.
  public var current: Value { state.withLock { $0.current } }

  /// Sets the current value and gives it to every consumer.
  public func send(_ value: Value) {
    let consumers = state.withLock { state -> [AsyncStream<Value>.Continuation] in
      guard !state.finished else { return [] }
      state.current = value
      return Array(state.consumers.values)
    }
    for consumer in consumers { consumer.yield(value) }
  }

  func finish() {
    let consumers = state.withLock { state -> [AsyncStream<Value>.Continuation] in
      state.finished = true
      defer { state.consumers = [:] }
      return Array(state.consumers.values)
    }
    for consumer in consumers { consumer.finish() }
  }

  /// A new consumer's elements: the current value, then each one sent; nothing once closed (a
  /// finished `CurrentValueSubject` sends a new subscriber only its completion).
  func elements() -> ValueSequence {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state -> Int? in
      guard !state.finished else { return nil }
      continuation.yield(state.current)
      state.nextConsumer += 1
      state.consumers[state.nextConsumer] = continuation
      return state.nextConsumer
    }
    guard let id else {
      continuation.finish()
      return ValueSequence(stream)
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.consumers.removeValue(forKey: id) }
    }
    return ValueSequence(stream)
  }
}
