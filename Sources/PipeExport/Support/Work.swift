import AsyncAlgorithms
import Foundation

/// pipesh's `work`: waits `interval` for each element, then passes it on, and only then asks for
/// the next. Cancelled while it waits, it ends and hands nothing on, as `AsyncTimerSequence` does.
struct Working<Base: AsyncSequence>: AsyncSequence {
  typealias Element = Base.Element
  typealias Failure = Base.Failure
  let base: Base
  let interval: Duration

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), interval: interval)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let interval: Duration
    var cancelled = false

    mutating func next() async throws(Base.Failure) -> Base.Element? {
      try await next(isolation: nil)
    }

    mutating func next(
      isolation actor: isolated (any Actor)?
    ) async throws(Base.Failure) -> Base.Element? {
      guard !cancelled, let element = try await base.next(isolation: actor) else { return nil }
      do {
        try await Task.sleep(for: interval)
      } catch {
        cancelled = true
        return nil
      }
      return element
    }
  }
}

extension Working: Sendable where Base: Sendable {}

extension AsyncSequence {
  fileprivate func working(for interval: Duration) -> Working<Self> {
    Working(base: self, interval: interval)
  }
}
