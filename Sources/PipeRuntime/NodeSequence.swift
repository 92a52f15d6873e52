import PipeSema

/// Wraps a node's output to keep its `Node` record: start, elements out, and how it ended. An
/// iterator dropped before its end means the consumer stopped asking: the node was cancelled.
struct NodeSequence: AsyncSequence, Sendable {
  typealias Element = Value

  let base: ValueSequence
  let node: Node
  let context: JobContext

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), tracker: Tracker(node: node, context: context))
  }

  /// Ends the node as cancelled when the iterator goes away before its end.
  final class Tracker {
    let node: Node
    let context: JobContext

    init(node: Node, context: JobContext) {
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
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let tracker: Tracker

    mutating func next() async throws -> Value? {
      let node = tracker.node
      if node.started() { tracker.context.record(node, .start) }
      do {
        guard let value = try await base.next() else {
          if Task.isCancelled {
            tracker.end(.cancelled, reason: node.cancellationReason(jobCancelled: tracker.context.cancelRequested))
          } else {
            tracker.end(.finished)
          }
          return nil
        }
        node.counters.add(1, ordering: .relaxed)
        if tracker.context.observing { tracker.context.record(node, .element(value)) }
        return value
      } catch is CancellationError {
        tracker.end(.cancelled, reason: node.cancellationReason(jobCancelled: tracker.context.cancelRequested))
        throw CancellationError()
      } catch {
        tracker.end(.failed, reason: "\(error)")
        throw error
      }
    }
  }
}
