import AsyncAlgorithms
import Foundation

/// pipesh's `enumerated`: (index, element) tuples, counting from 0.
struct Enumerated<Base: AsyncSequence>: AsyncSequence {
  typealias Element = (Int, Base.Element)
  typealias Failure = Base.Failure
  let base: Base

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    var index = 0

    mutating func next() async throws(Base.Failure) -> (Int, Base.Element)? {
      try await next(isolation: nil)
    }

    mutating func next(
      isolation actor: isolated (any Actor)?
    ) async throws(Base.Failure) -> (Int, Base.Element)? {
      guard let element = try await base.next(isolation: actor) else { return nil }
      defer { index += 1 }
      return (index, element)
    }
  }
}

extension Enumerated: Sendable where Base: Sendable {}

extension AsyncSequence {
  fileprivate func enumerated() -> Enumerated<Self> { Enumerated(base: self) }
}
