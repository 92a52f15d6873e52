import AsyncAlgorithms
import Foundation

/// pipesh's `work`: waits `interval` for each element, then passes it on, and only then asks for
/// the next. Cancelled while it waits, it ends and hands nothing on, as `AsyncTimerSequence` does.
/// With `cooperative: false` the wait ignores the cancellation, as work that never checks it does:
/// it runs in an unstructured task, which the cancellation of the task awaiting it does not reach,
/// so the element is handed on at the end of the wait; then it ends.
struct Working<Base: AsyncSequence>: AsyncSequence {
  typealias Element = Base.Element
  typealias Failure = Base.Failure
  let base: Base
  let interval: Duration
  let cooperative: Bool

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), interval: interval, cooperative: cooperative)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let interval: Duration
    let cooperative: Bool
    var cancelled = false

    mutating func next() async throws(Base.Failure) -> Base.Element? {
      try await next(isolation: nil)
    }

    mutating func next(
      isolation actor: isolated (any Actor)?
    ) async throws(Base.Failure) -> Base.Element? {
      guard !cancelled, !(Task.isCancelled && !cooperative) else { return nil }
      guard let element = try await base.next(isolation: actor) else { return nil }
      guard cooperative else {
        let interval = interval
        await Task { try? await Task.sleep(for: interval) }.value
        return element
      }
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
  fileprivate func working(for interval: Duration, cooperative: Bool = true) -> Working<Self> {
    Working(base: self, interval: interval, cooperative: cooperative)
  }
}
