import PipeSema

/// Wraps a node's output to keep its `Node` record: start, elements out, and how it ended. An
/// iterator dropped before its end means the consumer stopped asking: the node was cancelled.
struct NodeSequence: AsyncSequence, Sendable {
  typealias Element = Value

  let base: ValueSequence
  let node: Node
  let context: JobContext

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), node: node, context: context)
  }

  /// A class, so its `deinit` records how the node ended before the upstream iterator it holds is
  /// released: the upstream then sees this node already cancelled.
  final class Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let node: Node
    let context: JobContext

    init(base: ValueSequence.Iterator, node: Node, context: JobContext) {
      self.base = base
      self.node = node
      self.context = context
      Node.live.add(1, ordering: .relaxed)
      context.liveIterators.add(1, ordering: .relaxed)
    }

    deinit {
      Node.live.subtract(1, ordering: .relaxed)
      context.liveIterators.subtract(1, ordering: .relaxed)
      if node.state == .idle || node.state == .running {
        end(.cancelled, reason: node.cancellationReason(jobCancelled: context.cancelRequested))
      }
    }

    func end(_ state: NodeState, reason: String? = nil) {
      guard node.ended(state, reason: reason) else { return }
      switch state {
      case .finished: context.record(node, .finished)
      case .failed: context.record(node, .failed(reason ?? ""))
      default: context.record(node, .cancelled(reason ?? ""))
      }
    }

    func next() async throws -> Value? {
      if node.started() { context.record(node, .start) }
      do {
        guard let value = try await base.next() else {
          if Task.isCancelled {
            end(.cancelled, reason: node.cancellationReason(jobCancelled: context.cancelRequested))
          } else {
            end(.finished)
          }
          return nil
        }
        node.counters.add(1, ordering: .relaxed)
        if context.observing { context.record(node, .element(value)) }
        return value
      } catch is CancellationError {
        end(.cancelled, reason: node.cancellationReason(jobCancelled: context.cancelRequested))
        throw CancellationError()
      } catch {
        end(.failed, reason: "\(error)")
        throw error
      }
    }
  }
}
