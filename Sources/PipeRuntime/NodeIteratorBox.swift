import PipeSema

/// What keeps a node's `Node` record while its output is asked for: the job's context, and the
/// node's `NodeLifetime`, held by the node's sequence and every iterator of it, so the job knows
/// when the node has let go of everything.
struct NodeRecord: Sendable {
  let node: Node
  let context: JobContext
  let lifetime: NodeLifetime
  /// Whether several consumers ask it at once (a `share`): its count is added to atomically, and
  /// it ends when the last of them stops asking.
  let manyReaders: Bool
}

/// A node's output with its `Node` record kept: start, elements out, and how it ended. An iterator
/// dropped before its end means the consumer stopped asking: the node was cancelled.
///
/// It wraps the node's concrete iterator in the same box that erases its type, so each element
/// passes one call per node (the box's `ask`, which keeps the record and asks the iterator), not a
/// recording wrapper around an erased iterator around the concrete one (each of those an executor
/// hop and a frame allocation).
class NodeIteratorBox: IteratorBox, @unchecked Sendable {
  let record: NodeRecord
  private let counting = Instrumentation.isOn
  /// Whether someone watches the job (`draw`, `trace`): only then are asks recorded.
  private let observing: Bool
  /// Whether this iterator has told the node it was asked (a lock taken once, not per element).
  private var asked = false

  /// `ask` is made in `RecordingBox`, where the concrete iterator's type is known.
  fileprivate init(_ record: NodeRecord, ask: @escaping (IteratorBox) async throws -> Value?) {
    self.record = record
    self.observing = record.context.observing
    if record.manyReaders { record.node.readers.add(1, ordering: .relaxed) }
    super.init(ask: ask)
  }

  @inline(never)
  fileprivate func willAsk() throws {
    if !asked {
      asked = true
      record.node.noteAsker()
      record.context.begin(record.node)
    }
    if record.manyReaders {
      record.node.sharedAsk(true)
    } else {
      record.node.asked(true)
      // Demand, for `draw … demand: true` and `why`: a share's readers ask it each on their own.
      if observing { record.context.record(record.node, .asked) }
    }
    // A job cancelled from another thread while its virtual clock's thread is busy in a loop
    // that never suspends: the flag is seen before the task's cancellation can be delivered.
    if record.context.cancelRequested {
      record.context.cancel(record.node)
      throw CancellationError()
    }
  }

  @inline(never)
  fileprivate func answered(_ value: Value?) -> Value? {
    if record.manyReaders { record.node.sharedAsk(false) } else { record.node.asked(false) }
    guard let value else {
      if Task.isCancelled {
        // One reader of a share stopping ends its node only when it is the last (deinit).
        if !record.manyReaders { record.context.cancel(record.node) }
      } else {
        record.context.finish(record.node)
      }
      return nil
    }
    // A load and a store, not an atomic add (a locked instruction per element per node): one
    // iterator at a time asks a node, so this is its count's one writer; a share's readers add.
    if counting {
      let node = record.node
      if record.manyReaders {
        node.counters.add(1, ordering: .relaxed)
      } else {
        node.counters.store(node.counters.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
      }
    }
    if observing { record.context.record(record.node, .element(value)) }
    return value
  }

  @inline(never)
  fileprivate func ended(by error: any Error) -> any Error {
    if record.manyReaders { record.node.sharedAsk(false) } else { record.node.asked(false) }
    if error is CancellationError {
      if !record.manyReaders { record.context.cancel(record.node) }
      return CancellationError()
    }
    record.context.fail(record.node, error)
    return error
  }
}

/// A node's concrete iterator, in the box that keeps its record.
final class RecordingBox<Base: AsyncIteratorProtocol>: NodeIteratorBox, @unchecked Sendable
where Base.Element == Value {
  /// Unchecked: one task at a time asks an iterator. A checked access to it lasts across the await
  /// for the next element, and its record sits in the frame every waiting node keeps.
  @exclusivity(unchecked) var base: Base

  init(_ base: Base, _ record: NodeRecord) {
    self.base = base
    // Every element's path through every node, and its frame sits in the job task's memory while
    // the job waits: it only awaits, and the bookkeeping is in small functions beside it.
    super.init(record) { box in
      let node = unsafeDowncast(box, to: RecordingBox.self)
      try node.willAsk()
      let value: Value?
      do {
        value = try await node.base.next()
      } catch {
        throw node.ended(by: error)
      }
      return node.answered(value)
    }
  }

  /// Runs before the upstream iterator `base` is released: the upstream then sees this node
  /// already cancelled.
  deinit {
    // A share stops when its last reader stops asking.
    if record.manyReaders, record.node.readers.subtract(1, ordering: .relaxed).newValue > 0 { return }
    record.context.cancel(record.node)
  }
}
