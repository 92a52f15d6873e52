import OpenCombine
import PipeEvaluator
import PipeSema

/// What a stage's Combine counterpart publishes: pipesh's values, failing with any error.
public typealias ValuePublisher = AnyPublisher<Value, any Error>

/// The Combine counterpart of one pipesh source, combinator, operator or sink, for `compare` and
/// `help`: what it is called in Combine, where it comes from, how it differs, and how to build it.
public struct Counterpart: Sendable {
  /// Where the Combine side of a stage comes from.
  public enum Origin: Sendable, Equatable {
    /// OpenCombine's own publisher or operator.
    case openCombine
    /// A publisher of pipesh's own, written to Apple's documentation of one OpenCombine lacks.
    case own
    /// A source made for `compare` on the virtual scheduler (timer ticks, scheduled sends).
    case virtualSource
    /// Nothing in Combine does this; `name` says what a Combine user would do instead.
    case missing
  }

  /// The Combine name (`prefix(_:)`), or for `.none` why there is none.
  public let name: String
  public let origin: Origin
  /// One line on how the two differ, where they do.
  public let difference: String?

  init(_ name: String, origin: Origin = .openCombine, differs difference: String? = nil) {
    self.name = name
    self.origin = origin
    self.difference = difference
  }

  /// A pipesh operator with nothing like it in Combine.
  static func none(_ why: String) -> Counterpart {
    Counterpart(why, origin: .missing)
  }

  /// The counterpart's name as `compare` and `help` show it: own publishers are marked.
  public var label: String {
    switch origin {
    case .openCombine, .virtualSource: name
    case .own: name + " (pipesh's own†)"
    case .missing: "none: " + name
    }
  }

  /// The lines `help NAME` adds.
  public var helpLines: [String] {
    var lines = ["combine: " + label]
    if label.contains("†") { lines.append("  † " + Self.ownNote) }
    if let difference { lines.append("  differs: " + difference) }
    return lines
  }

  /// What the † of an own publisher says.
  public static let ownNote =
    "pipesh's own, to Apple's documentation: OpenCombine 0.14.0 lacks it (or, for share, sends in a changing order)"
}

/// What a counterpart's builder gets: the checked stage, its upstream or inputs, and the scheduler.
struct CounterpartInput {
  let stage: CheckedStage
  let upstream: ValuePublisher
  let inputs: [ValuePublisher]
  let scheduler: VirtualScheduler
  /// Builds the publisher of a `flatMap` body with its arguments worked out, drawing no rows of
  /// its own; nil when a stage of it has no counterpart.
  let body: (CheckedPipeline) -> ValuePublisher?

  /// An error for what the checker rules out.
  func bug(_ what: String) -> PipelineError {
    PipelineError(stage: stage.text, message: "pipesh has \(what) (a bug: please report it)")
  }

  /// A closure argument, made ready to call.
  func compile(_ closure: TypedExpr) -> CompiledClosure {
    Evaluator(stage: stage.text).compile(closure)
  }

  /// A duration on the virtual scheduler.
  func stride(_ duration: Duration) -> VirtualScheduler.SchedulerTimeType.Stride {
    .init(duration)
  }

  /// A combinator's inputs with their elements made of the type they were joined into, as the
  /// AA side does (`merge(from 1, from 2.5)` emits Doubles from both).
  var unifiedInputs: [ValuePublisher] {
    zip(inputs, stage.inputs).map { publisher, pipeline in
      let type = stage.outputType
      guard pipeline.elementType != type else { return publisher }
      return publisher.map { $0.converted(to: type) }.eraseToAnyPublisher()
    }
  }
}
