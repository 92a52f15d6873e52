import PipeSema

/// Compiles a checked pipeline into a tree of real async-sequence nodes, each wrapped to keep its
/// `Node` record.
struct PipelineCompiler {
  let context: JobContext
  private(set) var nextNodeID = 0
  /// The nodes the job waits for before it ends: all but the hot part of a `share` fragment,
  /// which outlives the job that built it.
  private(set) var owned: [Node] = []
  private var buildingShared = false

  init(context: JobContext) {
    self.context = context
  }

  /// The pipeline's last non-sink node and the nodes of its stages, source first.
  mutating func build(_ pipeline: CheckedPipeline) throws -> (sequence: ValueSequence, nodes: [Node]) {
    var upstream = ValueSequence([Value]().async)
    var nodes: [Node] = []
    for stage in pipeline.stages where stage.role != .sink {
      var inputNodes: [[Node]] = []
      let sequence: ValueSequence
      switch stage.node {
      case .group:
        let (inner, innerNodes) = try build(stage.inputs[0])
        inputNodes = [innerNodes]
        sequence = inner
      case .shared(let id):
        var shareNodes: [Node] = []
        sequence = try context.session.shared(id) {
          buildingShared = true
          defer { buildingShared = false }
          let (inner, innerNodes) = try build(stage.inputs[0])
          shareNodes = innerNodes
          return inner
        }
        inputNodes = shareNodes.isEmpty ? [] : [shareNodes]
      case .signature(let name):
        var inputs: [ValueSequence] = []
        for input in stage.inputs {
          let (inner, innerNodes) = try build(input)
          inputs.append(inner)
          inputNodes.append(innerNodes)
        }
        let builder = Builders.table[name] ?? { input in input.upstream }
        sequence = try builder(StageInput(stage: stage, upstream: upstream, inputs: inputs, context: context))
      }
      nextNodeID += 1
      let node = Node(id: nextNodeID, text: stage.text, inputs: inputNodes)
      nodes.last?.downstream = node
      nodes.append(node)
      if !buildingShared { owned.append(node) }
      upstream = ValueSequence(NodeSequence(base: sequence, node: node, context: context))
    }
    return (upstream, nodes)
  }
}
