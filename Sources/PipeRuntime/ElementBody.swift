import PipeEvaluator
import PipeSema

/// The body of `flatMap { … }` and `flatMapLatest { … }`: a pipeline built for each element, with
/// the arguments that mention `$0` worked out from it. Each one built becomes a child of the
/// operator's node, its stages labelled with the element (`take $0 ($0 = 3)`).
struct ElementBody: Sendable {
  private let body: CheckedPipeline
  private let context: JobContext
  private let owner: LiveCount
  private let children = ChildPipelines()
  private let stage: String
  private let nodeID: Int
  /// Whether a new element's pipeline replaces the one before (`flatMapLatest`).
  private let supersedes: Bool

  /// `outlivesTheJob`: each element's pipeline runs in a context of its own, which the job's
  /// cancellation does not reach and whose nodes the job's end does not wait for (`spawn`).
  init(_ body: CheckedPipeline, _ input: StageInput, supersedes: Bool = false, outlivesTheJob: Bool = false) {
    self.body = body
    self.context = outlivesTheJob ? input.context.outlivingTheJob() : input.context
    self.owner = outlivesTheJob ? input.context.outlivingNodes : input.owner
    self.stage = input.stage.text
    self.nodeID = input.nodeID
    self.supersedes = supersedes
    let children = self.children
    input.children.withLock { $0 = children }
  }

  /// The element's pipeline; one that cannot be built fails when asked for its first element
  /// (the transforms of `flatMap` and `flatMapLatest` cannot throw), ending the job with the error.
  func sequence(for element: Value) -> ValueSequence {
    let label = " ($0 = \(element.printed))"
    let evaluator = Evaluator(stage: stage, nodeID: nodeID)
    do {
      let resolved = try body.labelled(label).resolved { expr in
        try evaluator.compile(expr)(element, .none)
      }
      var compiler = PipelineCompiler(body: context, owner: owner)
      let (sequence, nodes) = try compiler.build(resolved)
      if let previous = children.add(nodes), supersedes { Node.supersede(previous) }
      return sequence
    } catch let error as PipelineError {
      return ValueSequence(FailSequence(error: error))
    } catch let error as ElementArgumentError {
      return ValueSequence(FailSequence(error: PipelineError(stage: error.stage, message: error.message)))
    } catch {
      return ValueSequence(FailSequence(error: PipelineError(stage: stage + label, message: "\(error)")))
    }
  }
}

extension CheckedPipeline {
  /// The pipeline with `suffix` after each stage's text (a nested body keeps its own).
  fileprivate func labelled(_ suffix: String) -> CheckedPipeline {
    let stages = self.stages.map { stage in
      stage.with(text: stage.text + suffix, inputs: stage.inputs.map { $0.labelled(suffix) })
    }
    return CheckedPipeline(stages: stages, text: text + suffix)
  }
}
