import AsyncAlgorithms
import Foundation

/// AsyncAlgorithms 1.1.4's `merge`, `zip`, `combineLatest` and `chain` (and `chunked(by:)` and
/// `chunks(ofCount:or:)` with a signal sequence, which merge their input with it) say their
/// `Failure` is `Never` even where an input can fail (their `next()` rethrows): asked through
/// `next(isolation:)`, as `for try await` and typed operators ask, such an error is cast to `Never`
/// and traps. This asks their `next()`, and says `any Error`.
struct Rethrowing<Base: AsyncSequence>: AsyncSequence {
  typealias Element = Base.Element
  typealias Failure = any Error
  let base: Base

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator

    mutating func next() async throws -> Base.Element? { try await base.next() }
  }
}

extension Rethrowing: Sendable where Base: Sendable {}

extension AsyncSequence {
  /// The sequence, its errors passed on as `any Error`.
  fileprivate func rethrowing() -> Rethrowing<Self> { Rethrowing(base: self) }
}
