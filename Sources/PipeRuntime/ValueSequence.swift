import PipeSema

/// The type-erased sequence every node of a pipeline is seen as: elements are `Value`s, and the
/// node's concrete type is one the runtime picked when compiling the stage.
public struct ValueSequence: AsyncSequence, Sendable {
  public typealias Element = Value

  private let make: @Sendable () -> Iterator

  public init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Value {
    make = { Iterator(ConcreteIteratorBox(base.makeAsyncIterator())) }
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
  }
}

/// The abstract iterator `ValueSequence.Iterator` calls into.
class IteratorBox {
  func next() async throws -> Value? { nil }
}

final class ConcreteIteratorBox<Base: AsyncIteratorProtocol>: IteratorBox where Base.Element == Value {
  var base: Base

  init(_ base: Base) {
    self.base = base
  }

  override func next() async throws -> Value? {
    try await base.next()
  }
}

@available(*, unavailable)
extension ValueSequence.Iterator: Sendable {}
