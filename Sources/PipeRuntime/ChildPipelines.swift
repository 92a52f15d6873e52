import Locking
import Synchronization

/// The pipelines a `flatMap { … }` node built, one per element, in order: its children in
/// `inspect`, `trace` and `draw`.
public final class ChildPipelines: Sendable {
  private let pipelines = Locked<[[Node]]>([])
  /// The `flatMap` node: each pipeline's consumer (weak: the node holds this).
  private let ownerStorage = Locked<WeakNode>(WeakNode())

  private struct WeakNode {
    weak var node: Node?
  }

  var owner: Node? {
    get { ownerStorage.withLock { $0.node } }
    set { ownerStorage.withLock { $0.node = newValue } }
  }

  public var all: [[Node]] { pipelines.withLock { $0 } }

  /// How many are kept for `inspect` and `draw`: a long-running `flatMap` must not hold every
  /// element's nodes.
  static let kept = 50
  private let dropped = Atomic<Int>(0)

  /// Pipelines built and no longer kept.
  public var earlier: Int { dropped.load(ordering: .relaxed) }

  /// How many nodes the pipelines built so far hold: the next one's rank.
  private let ranked = Locked(0)

  /// Adds the nodes of the pipeline just built; returns the one built before it.
  func add(_ nodes: [Node]) -> [Node]? {
    nodes.last?.downstream = owner
    if let owner {
      let flat = Node.flattened(nodes)
      let first = ranked.withLock { ranked in
        defer { ranked += flat.count }
        return ranked
      }
      for (offset, node) in flat.enumerated() where node.built == nil {
        node.setBuilt(by: owner.id, rank: first + offset)
      }
    }
    let (previous, removed) = pipelines.withLock { pipelines -> ([Node]?, Bool) in
      let previous = pipelines.last
      pipelines.append(nodes)
      guard pipelines.count > Self.kept else { return (previous, false) }
      pipelines.removeFirst()
      return (previous, true)
    }
    if removed { dropped.add(1, ordering: .relaxed) }
    return previous
  }
}
