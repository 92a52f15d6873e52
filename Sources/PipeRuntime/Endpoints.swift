import Locking
import PipeEvaluator
import PipeSema

/// `stream NAME`: an `AsyncStream` and its continuation. `send` yields (never waits: a full buffer
/// drops by the policy), `close` finishes. As in Swift (checked with 6.3), several consumers
/// iterating one `AsyncStream` at once split its elements, each element going to one of them, and
/// a consumer cancelled while it waits terminates the stream for all. The stream is held by its
/// consumers only, not here: once every one has stopped it has ended (and `yield` says so).
public final class StreamEndpoint: Sendable {
  let name: String
  public let buffering: StreamBuffering
  /// What it holds for its consumers (`inspect` shows it on the nodes that read it).
  public let ledger = StreamLedger()
  private let continuation: AsyncStream<Value>.Continuation
  /// The stream until its first consumer takes it, then (weakly) what its consumers hold.
  private let state: Locked<(stream: AsyncStream<Value>?, consumed: Weak)>

  /// The stream as its consumers hold it, with how many iterate it now.
  final class Consumed: Sendable {
    let stream: AsyncStream<Value>
    let ledger: StreamLedger
    let consumers = Locked(0)

    init(_ stream: AsyncStream<Value>, ledger: StreamLedger) {
      self.stream = stream
      self.ledger = ledger
    }
  }

  struct Weak: Sendable {
    weak var consumed: Consumed?
  }

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
    state = Locked((stream, Weak()))
  }

  /// What one `send` of a value did.
  public enum Yielded: Sendable, Equatable {
    case enqueued
    /// The buffer was full: this value was dropped (the newest one or the oldest buffered).
    case dropped(Value)
    /// The stream has ended (closed, or its consumers stopped): nothing takes the value.
    case ended
  }

  /// Yields `value`; never waits.
  public func yield(_ value: Value) -> Yielded {
    // Counted before it is yielded: a consumer waiting in next() may take it before yield returns.
    ledger.sent()
    switch continuation.yield(value) {
    case .enqueued:
      return .enqueued
    case .dropped(let dropped):
      // One element left the buffer (the oldest held, or this one) for the one that came in.
      ledger.lost()
      return .dropped(dropped)
    case .terminated:
      ledger.lost()
      return .ended
    @unknown default:
      ledger.lost()
      return .ended
    }
  }

  func finish() { continuation.finish() }

  /// How many consumers iterate it now (`lint` warns of a second: they split the elements).
  public var consumers: Int {
    state.withLock { $0.consumed.consumed }?.consumers.withLock { $0 } ?? 0
  }

  /// The elements, for a consumer `stage` of job `jobID`: the stream, shared with the consumers
  /// iterating it now; once they have all stopped it has ended, and a new consumer gets an error.
  func elements(for jobID: Int, stage: String, nodeID: Int) -> ValueSequence {
    let consumed = state.withLock { state -> Consumed? in
      if let consumed = state.consumed.consumed { return consumed }
      guard let stream = state.stream else { return nil }
      let consumed = Consumed(stream, ledger: ledger)
      state = (nil, Weak(consumed: consumed))
      return consumed
    }
    if let consumed { return ValueSequence(StreamConsumer(consumed: consumed)) }
    return ValueSequence(
      FailSequence(
        error: PipelineError(
          stage: stage,
          message:
            "stream '\(name)' has ended: its consumers stopped, and a stopped AsyncStream yields nothing; "
            + "close '\(name)' and read 'stream \(name)' again for a new one",
          nodeID: nodeID)))
  }
}

/// What a `stream` holds: the elements sent to it that no consumer has taken yet (its buffering
/// policy's drops left out), as `inspect` shows it.
public final class StreamLedger: Sendable {
  private let count = Locked(0)

  /// Elements sent and not yet taken (an element a consumer waiting in `next()` is being handed
  /// counts until it has it).
  public var held: Int { count.withLock { $0 } }

  func sent() { count.withLock { $0 += 1 } }
  /// An element sent left it without a consumer taking it: dropped by its policy, or it had ended.
  func lost() { count.withLock { $0 -= 1 } }
  func taken() { count.withLock { $0 -= 1 } }
}

/// One consumer of a stream: it holds the stream while it may iterate, and counts itself among its
/// consumers while it does.
struct StreamConsumer: AsyncSequence, Sendable {
  typealias Element = Value
  let consumed: StreamEndpoint.Consumed

  func makeAsyncIterator() -> Iterator { Iterator(consumed) }

  final class Iterator: AsyncIteratorProtocol {
    private let consumed: StreamEndpoint.Consumed
    private var base: AsyncStream<Value>.Iterator

    init(_ consumed: StreamEndpoint.Consumed) {
      self.consumed = consumed
      base = consumed.stream.makeAsyncIterator()
      consumed.consumers.withLock { $0 += 1 }
    }

    func next() async -> Value? {
      let value = await base.next(isolation: nil)
      if value != nil { consumed.ledger.taken() }
      return value
    }

    deinit {
      consumed.consumers.withLock { $0 -= 1 }
    }
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
