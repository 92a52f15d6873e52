import AsyncAlgorithms
import PipeSema
import VirtualTime

extension Operators {
  /// `delay`: passes each element on INTERVAL after it arrived.
  enum Delay {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          let clock = input.clock
          let stamped = input.upstream.map { value in (clock.now, value) }.buffer(policy: .unbounded)
          return ValueSequence(
            CancellingWhenDropped(
              base: DelaySequence(base: stamped, interval: interval, clock: clock)))
        })
    }
  }
}

/// `delay INTERVAL`: each element is passed on INTERVAL after it arrived. Arrival is stamped in
/// a `buffer(policy: .unbounded)` task, so a slow consumer does not move the stamps.
struct DelaySequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == (PipeInstant, Value) {
  typealias Element = Value
  let base: Base
  let interval: Duration
  let clock: PipeClock

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), interval: interval, clock: clock) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let interval: Duration
    let clock: PipeClock

    mutating func next() async throws -> Value? {
      guard let (arrived, value) = try await base.next() else { return nil }
      try await clock.sleep(until: arrived.advanced(by: interval), tolerance: nil)
      return value
    }
  }
}
