import PipeSema

/// Wraps a node's output to keep its `Node` record: start, elements out, and how it ended. An
/// iterator dropped before its end means the consumer stopped asking: the node was cancelled.
/// The sequence and its iterators hold the node's `NodeLifetime`, so the job knows when the node
/// has let go of everything.
struct NodeSequence: AsyncSequence, Sendable {
  typealias Element = Value

  let base: ValueSequence
  let node: Node
  let context: JobContext
  let lifetime: NodeLifetime

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), node: node, context: context, lifetime: lifetime)
  }

  /// A class, so its `deinit` records how the node ended before the upstream iterator it holds is
  /// released: the upstream then sees this node already cancelled.
  final class Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let node: Node
    let context: JobContext
    let lifetime: NodeLifetime
    private let counting = Instrumentation.isOn

    init(base: ValueSequence.Iterator, node: Node, context: JobContext, lifetime: NodeLifetime) {
      self.base = base
      self.node = node
      self.context = context
      self.lifetime = lifetime
    }

    deinit {
      context.cancel(node)
    }

    // `next()` is every element's path through every node, and its frame sits in the job task's
    // memory while the job waits: it only awaits, and the bookkeeping is in small functions beside it.
    func next() async throws -> Value? {
      try willAsk()
      let value: Value?
      do {
        value = try await base.next()
      } catch {
        throw ended(by: error)
      }
      return answered(value)
    }

    @inline(never)
    private func willAsk() throws {
      context.begin(node)
      // A job cancelled from another thread while its virtual clock's thread is busy in a loop
      // that never suspends: the flag is seen before the task's cancellation can be delivered.
      if context.cancelRequested {
        context.cancel(node)
        throw CancellationError()
      }
    }

    @inline(never)
    private func answered(_ value: Value?) -> Value? {
      guard let value else {
        if Task.isCancelled {
          context.cancel(node)
        } else {
          context.finish(node)
        }
        return nil
      }
      if counting { node.counters.add(1, ordering: .relaxed) }
      if context.observing { context.record(node, .element(value)) }
      return value
    }

    @inline(never)
    private func ended(by error: any Error) -> any Error {
      if error is CancellationError {
        context.cancel(node)
        return CancellationError()
      }
      context.fail(node, error)
      return error
    }
  }
}
