import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `enumerated`: emits (index, element) tuples, counting from 0.
  enum Enumerated {
    static func run() -> Run {
      .node(
        build: { input in ValueSequence(EnumeratedSequence(base: input.upstream)) },
        fusedStep: { _ in { Step() } })
    }

    final class Step: FusedStep {
      var index = 0

      func apply(_ value: Value) -> FusedOutcome {
        defer { index += 1 }
        return .pass(.tuple([.int(index), value]))
      }
    }
  }
}

/// `enumerated`: (index, element) tuples.
struct EnumeratedSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    var index = 0

    mutating func next() async throws -> Value? {
      guard let value = try await base.next() else { return nil }
      defer { index += 1 }
      return .tuple([.int(index), value])
    }
  }
}
