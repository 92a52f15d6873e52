import Locking
import PipeEvaluator
import PipeSema
import VirtualTime

/// How a stage runs: each operator's file in this folder says it for its operation
/// (`Operators.run(_:)` switches over them).
enum Run: Sendable {
  /// A source, combinator or operator: a node built from the stage. A fusable operator also
  /// has a synchronous step, and a source that can be looped over directly a fused source.
  /// A combinator says too whether one input's end ends it (`inputFinishing`).
  case node(
    build: Builder, fusedStep: FusedStepMaker? = nil, fusedSource: FusedSourceMaker? = nil,
    inputFinishing: InputFinishing = .endsNothing)
  /// A sink: what it does with each element and at the end.
  case sink(SinkMaker)
}

/// Builds the node of one stage.
typealias Builder = @Sendable (StageInput) throws -> ValueSequence

/// Makes the state of a fused stage for one iteration; nil when this stage cannot be fused.
typealias FusedStepMaker = @Sendable (StageInput) throws -> (@Sendable () -> FusedStep)?

/// A source's elements for a fused node to loop over; nil when this stage cannot be fused.
typealias FusedSourceMaker = @Sendable (StageInput) throws -> FusedSource?

/// Makes what a sink does with its input.
typealias SinkMaker = @Sendable (StageInput) throws -> any SinkBody

/// What a builder gets, beside its operation's arguments: the checked stage, its input(s) and the
/// job.
struct StageInput {
  let stage: CheckedStage
  /// The upstream of an operator or sink; an empty sequence for sources.
  let upstream: ValueSequence
  /// The built inputs of a combinator.
  let inputs: [ValueSequence]
  let context: JobContext
  /// The id of the node being built.
  let nodeID: Int
  /// Where the node counts as live: its job, or the session for the hot part of a `share`.
  let owner: LiveCount
  /// What the builder says its node is built on, for `inspect` (see `Node.detail`).
  let detail = Locked<String?>(nil)
  /// The pipelines a `flatMap { … }` node builds per element, for its node's children.
  let children = Locked<ChildPipelines?>(nil)
  /// A `share`'s ledger of what it holds, for its node.
  let shareLedger = Locked<ShareLedger?>(nil)
  /// What a `stream` the node reads holds, for its node.
  let streamLedger = Locked<StreamLedger?>(nil)

  var clock: PipeClock { context.clock }

  /// A combinator's inputs with their elements made of the type they were joined into
  /// (`chain(from 1, from 2.5)` emits Doubles from both).
  var unifiedInputs: [ValueSequence] {
    zip(inputs, stage.inputs).map { sequence, pipeline in
      let type = stage.outputType
      guard pipeline.elementType != type else { return sequence }
      return ValueSequence(sequence.map { $0.converted(to: type) })
    }
  }

  /// An error for what the checker rules out: a bug of pipesh's, never papered over.
  func bug(_ what: String) -> PipelineError {
    PipelineError(stage: stage.text, message: "pipesh has \(what) (a bug: please report it)", nodeID: nodeID)
  }

  /// A closure argument, made ready to call.
  func compile(_ closure: TypedExpr) -> CompiledClosure {
    evaluator.compile(closure)
  }

  /// A closure argument over this stage's plain Int elements, when they are Ints and the closure
  /// is an Int expression of them: a fused run passes them unboxed (`IntStep`).
  func compileInt(_ closure: TypedExpr) -> IntClosure? {
    takesInts ? evaluator.intClosure(closure) : nil
  }

  /// A predicate over this stage's plain Int elements, when they are Ints.
  func compileIntPredicate(_ closure: TypedExpr) -> IntPredicate? {
    takesInts ? evaluator.intPredicate(closure) : nil
  }

  /// Whether this stage's elements are plain Ints a fused run may pass unboxed (`IntStep`).
  var takesInts: Bool { stage.inputType == .int }

  private var evaluator: Evaluator { Evaluator(stage: stage.text, nodeID: nodeID) }
}
