import Locking
import PipeSema

/// One source, combinator, operator or sink: its signature (what the checker checks against and
/// `help` shows) beside how it runs. Each lives in its own file in this folder; `Operators.all`
/// lists them.
public struct Operator: Sendable {
  public let signature: OperatorSignature
  let run: Run

  /// How a stage runs.
  enum Run: Sendable {
    /// A source, combinator or operator: a node built from the stage. A fusable operator also
    /// has a synchronous step, and a source that can be looped over directly a fused source.
    case node(build: Builder, step: FusedStepMaker?, source: FusedSourceMaker?)
    /// A sink: what it does with each element and at the end.
    case sink(SinkMaker)
  }

  /// A source, combinator or operator.
  init(
    _ signature: OperatorSignature, build: @escaping Builder, fusedStep: FusedStepMaker? = nil,
    fusedSource: FusedSourceMaker? = nil
  ) {
    self.signature = signature
    run = .node(build: build, step: fusedStep, source: fusedSource)
  }

  /// A sink.
  init(_ signature: OperatorSignature, sink: @escaping SinkMaker) {
    self.signature = signature
    run = .sink(sink)
  }

  var name: String { signature.name }
}

/// Builds the node of one stage.
typealias Builder = @Sendable (StageInput) throws -> ValueSequence

/// Makes the state of a fused stage for one iteration; nil when this stage cannot be fused.
typealias FusedStepMaker = @Sendable (StageInput) throws -> (@Sendable () -> FusedStep)?

/// A source's elements for a fused node to loop over; nil when this stage cannot be fused.
typealias FusedSourceMaker = @Sendable (StageInput) throws -> FusedSource?

/// Makes what a sink does with its input.
typealias SinkMaker = @Sendable (StageInput) throws -> any SinkBody

/// What a builder gets: the checked stage, its input(s) and the job. The checker guarantees the
/// arguments a signature requires: asking for one that is missing is a bug, reported as an error of
/// the stage, never replaced by a default.
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

  private func missing(_ name: String) -> PipelineError {
    bug("no checked '\(name)' for '\(stage.name)'")
  }

  /// An error for what the checker rules out: a bug of pipesh's, never papered over.
  func bug(_ what: String) -> PipelineError {
    PipelineError(stage: stage.text, message: "pipesh has \(what) (a bug: please report it)", nodeID: nodeID)
  }

  private func required<T>(_ name: String, _ value: T?) throws(PipelineError) -> T {
    guard let value else { throw missing(name) }
    return value
  }

  func closure(_ name: String) throws(PipelineError) -> CompiledClosure {
    Evaluator(stage: stage.text, nodeID: nodeID).compile(try required(name, stage.closure(name)))
  }

  func optionalValue(_ name: String) -> Value? { stage.value(name) }

  func value(_ name: String) throws(PipelineError) -> Value { try required(name, stage.value(name)) }

  func values(_ name: String) throws(PipelineError) -> [Value] { try required(name, stage.values(name)) }

  func optionalInt(_ name: String) -> Int? { stage.int(name) }

  func int(_ name: String) throws(PipelineError) -> Int { try required(name, stage.int(name)) }

  func optionalString(_ name: String) -> String? { stage.string(name) }

  func string(_ name: String) throws(PipelineError) -> String { try required(name, stage.string(name)) }

  func optionalBool(_ name: String) -> Bool? { stage.bool(name) }

  func optionalDuration(_ name: String) -> Duration? { stage.duration(name) }

  func duration(_ name: String) throws(PipelineError) -> Duration { try required(name, stage.duration(name)) }

  func optionalName(_ name: String) -> String? { stage.word(name) }

  func name(_ name: String) throws(PipelineError) -> String { try required(name, stage.word(name)) }

  func marble(_ name: String) throws(PipelineError) -> MarbleDiagram { try required(name, stage.marble(name)) }
}
