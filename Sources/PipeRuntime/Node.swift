import Locking
import PipeSema
import Synchronization

/// How a node ended, or that it has not.
public enum NodeState: String, Sendable {
  /// Built, not yet asked for an element.
  case idle
  /// Asked for elements and not ended.
  case running
  /// Its input ended, or it had all it needed (as `take 3` after three).
  case finished
  /// It threw an error.
  case failed
  /// Its task was cancelled, or its consumer stopped asking before the end.
  case cancelled
}

/// One lifecycle event of a node, for `trace`, `draw` and `diagram`.
public struct NodeEvent: Sendable {
  public enum Kind: Sendable {
    case start
    case element(Value)
    case finished
    case failed(String)
    case cancelled(String)
  }

  public let time: Duration
  public let jobID: Int
  public let node: Node
  public let kind: Kind
}

/// Receives node events as they happen.
public protocol NodeObserver: AnyObject, Sendable {
  func record(_ event: NodeEvent)
}

/// The live record of one node of a job: state and counts, read by `jobs`, `inspect` and `stats`.
public final class Node: Sendable {
  public let id: Int
  public let text: String
  /// What the node is built on, where the stage's text does not say it (`AsyncThrowingChannel`).
  public let detail: String?
  /// The nodes of each input pipeline of a combinator, group or shared fragment.
  public let inputs: [[Node]]
  /// The pipelines `flatMap { … }` built so far, one per element.
  public let children: ChildPipelines?
  /// Elements it passed on (a sink: results it printed or sent).
  let counters = Atomic<Int>(0)
  /// Elements a sink received; other nodes' input is their upstream's output.
  let received = Atomic<Int>(0)
  /// Whether this is the sink of its pipeline.
  public let isSink: Bool
  /// State, reason and downstream: one lock for the three.
  private let record = Locked(Record())

  private struct Record {
    var state = NodeState.idle
    var reason: String?
    var downstream: Node?
    /// `flatMapLatest` moved on to a newer element: why this body's nodes stop.
    var superseded = false
  }

  /// Nodes alive in the process: built and not yet let go of by their sequence and iterators.
  /// After a job ends it returns to what it was before (the `Node` records stay, for `inspect`).
  public static let live = Atomic<Int>(0)

  /// Whether this node is the last of a combinator's input, so its consumer is the combinator.
  private let feedsCombinatorStorage = Atomic<Bool>(false)

  init(
    id: Int, text: String, inputs: [[Node]], isSink: Bool = false, detail: String? = nil,
    children: ChildPipelines? = nil
  ) {
    self.id = id
    self.children = children
    self.isSink = isSink
    self.text = text
    self.detail = detail
    self.inputs = inputs
    for input in inputs {
      for (node, next) in zip(input, input.dropFirst()) { node.downstream = next }
      input.last?.downstream = self
      input.last?.feedsCombinatorStorage.store(true, ordering: .relaxed)
    }
  }

  /// Every node of a tree, each node's inputs and the pipelines it built before it (the order
  /// `draw` lists them in).
  public static func flattened(_ nodes: [Node]) -> [Node] {
    nodes.flatMap { node in
      node.inputs.flatMap { flattened($0) } + (node.children?.all ?? []).flatMap { flattened($0) } + [node]
    }
  }

  /// Marks a pipeline `flatMapLatest` left for a newer element: its nodes stop for that reason.
  static func supersede(_ nodes: [Node]) {
    for node in flattened(nodes) { node.record.withLock { $0.superseded = true } }
  }

  /// The node that consumes this one's output (nil for the last one: the sink consumes it).
  var downstream: Node? {
    get { record.withLock { $0.downstream } }
    set { record.withLock { $0.downstream = newValue } }
  }

  /// Why a node whose consumer stopped asking was stopped: what became of that consumer.
  /// A sink has no consumer: only its job's cancellation is a reason.
  func cancellationReason(jobCancelled: Bool) -> String? {
    if jobCancelled { return "job cancelled" }
    if isSink { return nil }
    if record.withLock({ $0.superseded }) { return "newer element" }
    guard let downstream else { return "downstream finished" }
    let feedsCombinator = feedsCombinatorStorage.load(ordering: .relaxed)
    switch downstream.state {
    case .finished: return feedsCombinator ? "sibling finished" : "downstream finished"
    case .failed: return "downstream failed"
    case .cancelled: return downstream.reason == "job cancelled" ? "job cancelled" : "downstream cancelled"
    case .idle, .running:
      return feedsCombinator ? "sibling finished" : "downstream stopped asking"
    }
  }

  /// Elements the node passed on.
  public var output: Int { counters.load(ordering: .relaxed) }
  /// Elements a sink received.
  public var input: Int { received.load(ordering: .relaxed) }
  public var state: NodeState { record.withLock { $0.state } }
  /// Why it was cancelled or how it failed, where known.
  public var reason: String? { record.withLock { $0.reason } }

  func started() -> Bool {
    record.withLock { record in
      guard record.state == .idle else { return false }
      record.state = .running
      return true
    }
  }

  /// Moves a running node to its end state; false when it had ended already.
  func ended(_ end: NodeState, reason: String? = nil) -> Bool {
    record.withLock { record in
      guard record.state == .running || record.state == .idle else { return false }
      record.state = end
      if let reason { record.reason = reason }
      return true
    }
  }

  /// Ends a node that was never asked for an element: it is cancelled with its job.
  func endIfNeverStarted() {
    if state == .idle { _ = ended(.cancelled, reason: "never started") }
  }
}

/// The pipelines a `flatMap { … }` node built, one per element, in order: its children in
/// `inspect`, `trace` and `draw`.
public final class ChildPipelines: Sendable {
  private let pipelines = Locked<[[Node]]>([])

  public var all: [[Node]] { pipelines.withLock { $0 } }

  /// How many are kept for `inspect` and `draw`: a long-running `flatMap` must not hold every
  /// element's nodes.
  static let kept = 50
  private let dropped = Atomic<Int>(0)

  /// Pipelines built and no longer kept.
  public var earlier: Int { dropped.load(ordering: .relaxed) }

  /// Adds the nodes of the pipeline just built; returns the one built before it.
  func add(_ nodes: [Node]) -> [Node]? {
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
