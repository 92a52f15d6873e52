import PipeSema

/// The type-erased sequence every node of a pipeline is seen as: elements are `Value`s, and the
/// node's concrete type is one the runtime picked when compiling the stage.
public struct ValueSequence: AsyncSequence, Sendable {
  public typealias Element = Value

  private let make: @Sendable () -> Iterator

  public init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Value {
    make = { Iterator(ConcreteIteratorBox(base.makeAsyncIterator())) }
  }

  /// A fused run, whose iterator is asked on the caller's executor.
  init(_ fused: FusedSequence) {
    make = { Iterator(FusedIteratorBox(fused.makeAsyncIterator())) }
  }

  public func makeAsyncIterator() -> Iterator { make() }

  /// The iterator: one virtual call per element to the concrete iterator inside.
  public struct Iterator: AsyncIteratorProtocol {
    let box: IteratorBox

    init(_ box: IteratorBox) {
      self.box = box
    }

    public mutating func next() async throws -> Value? {
      try await box.next()
    }

    /// The next element, on the caller's executor: the per-element path of pipesh's own loops
    /// (sinks, fused runs), with no executor hop per call.
    nonisolated(nonsending) mutating func nextElement() async throws -> Value? {
      try await box.next()
    }

    // The per-element path stays on the caller's executor: a hop per call (what a nonisolated
    // async function does) costs more than a fused run's whole work per element.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
      try await box.next()
    }
  }
}

/// The abstract iterator `ValueSequence.Iterator` calls into.
class IteratorBox {
  nonisolated(nonsending) func next() async throws -> Value? { nil }
}

final class ConcreteIteratorBox<Base: AsyncIteratorProtocol>: IteratorBox where Base.Element == Value {
  var base: Base

  init(_ base: Base) {
    self.base = base
  }

  override nonisolated(nonsending) func next() async throws -> Value? {
    try await base.next(isolation: #isolation)
  }
}

@available(*, unavailable)
extension ValueSequence.Iterator: Sendable {}

final class FusedIteratorBox: IteratorBox {
  let base: FusedSequence.Iterator

  init(_ base: FusedSequence.Iterator) {
    self.base = base
  }

  override nonisolated(nonsending) func next() async throws -> Value? {
    try await base.nextElement()
  }
}
