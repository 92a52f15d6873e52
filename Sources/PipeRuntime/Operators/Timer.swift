import AsyncAlgorithms
import PipeSema
import VirtualTime

extension Operators {
  /// `timer`: emits 0, 1, 2, … one per interval, the first after one interval.
  enum Timer {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          let interval = interval
          return ValueSequence(TickCountSequence(timer: AsyncTimerSequence(interval: interval, clock: input.clock)))
        })
    }
  }
}

/// `timer`: counts the ticks of an `AsyncTimerSequence`, 0, 1, 2, …
struct TickCountSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let timer: AsyncTimerSequence<PipeClock>

  func makeAsyncIterator() -> Iterator { Iterator(base: timer.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: AsyncTimerSequence<PipeClock>.Iterator
    var count = 0

    mutating func next() async -> Value? {
      guard await base.next() != nil else { return nil }
      defer { count += 1 }
      return .int(count)
    }
  }
}
