import AsyncAlgorithms
import Foundation

/// pipesh's `delay`: each element passed on when it is due. Cancelled while it waits, it ends and
/// hands nothing on, as `AsyncTimerSequence` does.
struct Delayed<Base: AsyncSequence, Element>: AsyncSequence
where Base.Element == (ContinuousClock.Instant, Element) {
  typealias Failure = Base.Failure
  let base: Base

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    var cancelled = false

    mutating func next() async throws(Base.Failure) -> Element? {
      try await next(isolation: nil)
    }

    mutating func next(
      isolation actor: isolated (any Actor)?
    ) async throws(Base.Failure) -> Element? {
      guard !cancelled, let (due, element) = try await base.next(isolation: actor) else {
        return nil
      }
      do {
        try await Task.sleep(until: due)
      } catch {
        cancelled = true
        return nil
      }
      return element
    }
  }
}

extension Delayed: Sendable where Base: Sendable {}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `delay`: each element passed on `interval` after it arrived (stamped as it
  /// arrives, in a buffer's task, so a slow consumer does not move the stamps).
  fileprivate func delayed(
    by interval: Duration
  ) -> some AsyncSequence<Element, Failure> & Sendable {
    Delayed(base: map { (ContinuousClock.now + interval, $0) }.buffer(policy: .unbounded))
  }
}
