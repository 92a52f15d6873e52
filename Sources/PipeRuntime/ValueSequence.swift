import PipeSema

/// The type-erased sequence every node of a pipeline is seen as: elements are `Value`s, and the
/// node's concrete type is one the runtime picked when compiling the stage.
public struct ValueSequence: AsyncSequence, Sendable {
  public typealias Element = Value

  /// Makes an iterator; given a node's record, one that keeps it as it is asked (`recorded(as:)`).
  /// One closure, not one per kind: every idle job keeps its sequences.
  private let make: @Sendable (NodeRecord?) -> Iterator
  /// Whether it is a fused run, whose iterator answers on the caller's executor (`nextElement`).
  let isFused: Bool

  public init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Value {
    make = { record in
      guard let record else { return Iterator(ConcreteIteratorBox(base.makeAsyncIterator())) }
      return Iterator(RecordingBox(base.makeAsyncIterator(), record))
    }
    isFused = false
  }

  /// A fused run.
  init(_ fused: FusedSequence) {
    make = { record in
      let run = Iterator(FusedIteratorBox(fused.makeAsyncIterator()))
      guard let record else { return run }
      return Iterator(RecordingBox(run, record))
    }
    isFused = true
  }

  private init(recording base: ValueSequence, as record: NodeRecord) {
    make = { outer in
      let recorded = base.make(record)
      guard let outer else { return recorded }
      return Iterator(RecordingBox(recorded, outer))
    }
    isFused = false
  }

  /// This sequence as a node's output, keeping the node's record: one box per element's call,
  /// around the concrete iterator.
  func recorded(as record: NodeRecord) -> ValueSequence {
    ValueSequence(recording: self, as: record)
  }

  public func makeAsyncIterator() -> Iterator { make(nil) }

  /// The iterator: one virtual call per element to the concrete iterator inside.
  public struct Iterator: AsyncIteratorProtocol {
    let box: IteratorBox

    init(_ box: IteratorBox) {
      self.box = box
    }

    public mutating func next() async throws -> Value? {
      try await box.ask(box)
    }

    /// The next element, asked on the caller's executor: pipesh's own loops (a sink, a fused run
    /// reading its upstream) call this. A fused run answers without an executor hop, which costs
    /// more than its whole work per element; any other node as `next()` does.
    nonisolated(nonsending) mutating func nextElement() async throws -> Value? {
      try await box.nextElement()
    }
  }
}

/// The abstract iterator `ValueSequence.Iterator` calls into. One task at a time uses it (an
/// iterator is not shared), so it may be called from the caller's executor.
class IteratorBox: @unchecked Sendable {
  /// The next element of the concrete iterator inside, given this box: a function made where the
  /// iterator's type is known (in a subclass's `init`), so the call into it is specialized, and
  /// called directly, not through a method of the box: an async frame and two executor hops less
  /// an element a node. A generic class's overrides are not specialized: they would look up the
  /// iterator's type metadata and call its generic `next()` for every element.
  let ask: (IteratorBox) async throws -> Value?

  init(ask: @escaping (IteratorBox) async throws -> Value?) {
    self.ask = ask
  }

  nonisolated(nonsending) func nextElement() async throws -> Value? {
    try await ask(self)
  }
}

final class ConcreteIteratorBox<Base: AsyncIteratorProtocol>: IteratorBox, @unchecked Sendable
where Base.Element == Value {
  /// Unchecked: one task at a time asks an iterator.
  @exclusivity(unchecked) var base: Base

  init(_ base: Base) {
    self.base = base
    super.init { box in try await unsafeDowncast(box, to: ConcreteIteratorBox.self).base.next() }
  }
}

@available(*, unavailable)
extension ValueSequence.Iterator: Sendable {}

/// A fused run's iterator, asked on the caller's executor.
final class FusedIteratorBox: IteratorBox, @unchecked Sendable {
  let base: FusedSequence.Iterator

  init(_ base: FusedSequence.Iterator) {
    self.base = base
    super.init { box in try await unsafeDowncast(box, to: FusedIteratorBox.self).base.nextElement() }
  }

  override nonisolated(nonsending) func nextElement() async throws -> Value? {
    try await base.nextElement()
  }
}
