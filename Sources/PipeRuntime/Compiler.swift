import PipeSema

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compiles a checked pipeline into a tree of real async-sequence nodes, each wrapped to keep its
/// `Node` record.
struct PipelineCompiler {
  /// The job's context, or while building the hot part of a `share` fragment, one nobody cancels.
  private(set) var context: JobContext
  private(set) var nextNodeID = 0
  /// Where the nodes being built count as live: the job's count, or the session's while building
  /// the hot part of a `share` fragment, which outlives the job that built it.
  private var owner: LiveCount
  /// Whether runs of synchronous stages become one node.
  private let fusing: Bool

  init(context: JobContext, fusing: Bool) {
    self.context = context
    self.owner = context.liveNodes
    self.fusing = fusing
  }

  /// A compiler for the body of `flatMap { … }`, built per element while the job runs: its nodes
  /// count where the `flatMap` node's do, and its node ids are a range of their own.
  init(body context: JobContext, owner: LiveCount) {
    self.context = context
    self.owner = owner
    self.fusing = context.fusing
    self.nextNodeID = context.reserveNodeIDs()
  }

  private mutating func newNodeID() -> Int {
    nextNodeID += 1
    return nextNodeID
  }

  /// The node of a pipeline's sink, after the nodes `build` made.
  mutating func sinkNode(_ stage: CheckedStage) -> Node {
    Node(
      id: newNodeID(), text: stage.text, kind: NodeKind(stage),
      channelName: stage.channelName, inputs: [], isSink: true)
  }

  /// The pipeline's last non-sink node and the nodes of its stages, source first.
  mutating func build(_ pipeline: CheckedPipeline) throws -> (sequence: ValueSequence, nodes: [Node]) {
    var upstream = ValueSequence([Value]().async)
    var nodes: [Node] = []
    let stages = pipeline.stages.filter { $0.role != .sink }
    var position = 0
    while position < stages.count {
      if let (sequence, fused, next) = try fuse(stages, from: position, after: upstream, nodes.last) {
        nodes.append(contentsOf: fused)
        upstream = sequence
        position = next
        continue
      }
      let stage = stages[position]
      position += 1
      let id = newNodeID()
      var inputNodes: [[Node]] = []
      var detail: String?
      var children: ChildPipelines?
      var inputFinishing = InputFinishing.endsNothing
      var shareLedger: ShareLedger?
      var streamLedger: StreamLedger?
      var fragment: [Node] = []
      let sequence: ValueSequence
      switch stage.node {
      case .shared(let bindingID):
        var built = false
        (sequence, fragment) = try context.fragments.shared(bindingID, name: stage.text) { fragmentOwner in
          let (jobOwner, jobContext) = (owner, context)
          (owner, context) = (fragmentOwner, context.sharedFragment())
          defer { (owner, context) = (jobOwner, jobContext) }
          built = true
          return try build(stage.inputs[0])
        }
        // The nodes are this job's inputs where it built them (their events are its events).
        inputNodes = built ? [fragment] : []
      case .operation:
        var inputs: [ValueSequence] = []
        for input in stage.inputs {
          let (inner, innerNodes) = try build(input)
          inputs.append(inner)
          inputNodes.append(innerNodes)
        }
        let input = StageInput(
          stage: stage, upstream: upstream, inputs: inputs, context: context, nodeID: id, owner: owner)
        guard let operation = stage.operation else {
          throw input.bug("an argument of '\(stage.name)' not worked out")
        }
        guard case .node(let build, _, _, let finishing) = Operators.run(operation) else {
          throw input.bug("a sink '\(stage.name)' before the end")
        }
        sequence = try build(input)
        inputFinishing = finishing
        detail = input.detail.withLock { $0 }
        children = input.children.withLock { $0 }
        shareLedger = input.shareLedger.withLock { $0 }
        streamLedger = input.streamLedger.withLock { $0 }
      }
      let node = Node(
        id: id, text: stage.text, kind: NodeKind(stage), channelName: stage.channelName,
        inputs: inputNodes, detail: detail,
        children: children,
        inputFinishing: inputFinishing, dropsBeyond: stage.operation?.dropsBeyond, shareLedger: shareLedger,
        streamLedger: streamLedger, fragment: fragment)
      nodes.last?.downstream = node
      nodes.append(node)
      upstream = sequence.recorded(
        as: NodeRecord(
          node: node, context: context, lifetime: NodeLifetime(owner), manyReaders: shareLedger != nil))
    }
    return (upstream, nodes)
  }

  /// Fuses the run of synchronous stages starting at `start` (with a `range`/`from` source before
  /// them when the run starts the pipeline) into one node. Nil when there is nothing to fuse, or
  /// when someone observes the job's events (trace, draw), which then come from unfused nodes.
  private mutating func fuse(
    _ stages: [CheckedStage], from start: Int, after upstream: ValueSequence, _ previous: Node?
  ) throws -> (ValueSequence, [Node], Int)? {
    guard !context.observing, fusing else { return nil }
    var source: FusedSource = .upstream(upstream)
    var sourceStage: CheckedStage?
    var index = start
    let firstID = nextNodeID + 1
    if start == 0, let operation = stages[0].operation,
      case .node(_, _, let makeSource?, _) = Operators.run(operation),
      let fusedSource = try makeSource(
        StageInput(
          stage: stages[0], upstream: upstream, inputs: [], context: context, nodeID: firstID, owner: owner))
    {
      source = fusedSource
      sourceStage = stages[0]
      index = 1
    }
    var steps: [@Sendable () -> FusedStep] = []
    var fusedStages: [CheckedStage] = []
    while index < stages.count, let operation = stages[index].operation,
      case .node(_, let makeStep?, _, _) = Operators.run(operation),
      let step = try makeStep(
        StageInput(
          stage: stages[index], upstream: upstream, inputs: [], context: context,
          nodeID: firstID + (sourceStage == nil ? 0 : 1) + steps.count, owner: owner))
    {
      steps.append(step)
      fusedStages.append(stages[index])
      index += 1
    }
    // One operator alone gains nothing from fusing; a source does (one layer instead of three).
    guard steps.count >= 2 || sourceStage != nil else { return nil }
    var sourceNode: Node?
    if let sourceStage {
      sourceNode = Node(
        id: newNodeID(), text: sourceStage.text, kind: NodeKind(sourceStage),
        inputs: [])
    }
    var fused: [Node] = []
    for stage in fusedStages {
      fused.append(
        Node(id: newNodeID(), text: stage.text, kind: NodeKind(stage), inputs: []))
    }
    let chain = [previous, sourceNode].compactMap { $0 } + fused
    for (node, next) in zip(chain, chain.dropFirst()) { node.downstream = next }
    let all = [sourceNode].compactMap { $0 } + fused
    let lifetimes = all.map { _ in NodeLifetime(owner) }
    let sequence = FusedSequence(
      source: source, sourceNode: sourceNode, steps: steps, nodes: fused, context: context, lifetimes: lifetimes)
    return (ValueSequence(sequence), all, index)
  }
}

/// Switches for measuring: `PIPESH_FUSION=off` builds every stage as its own node, and
/// `PIPESH_INSTRUMENTATION=off` leaves out the per-node records (no live counts for `jobs`,
/// `inspect` and `stats`; `trace` and `draw` keep theirs). Both are on by default.
public enum Instrumentation {
  public static let isOn = !isOff("PIPESH_INSTRUMENTATION")
  public static let fusion = !isOff("PIPESH_FUSION")

  private static func isOff(_ name: String) -> Bool {
    guard let value = getenv(name) else { return false }
    return String(cString: value) == "off"
  }
}
