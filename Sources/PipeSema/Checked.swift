import PipeSyntax

/// A checked stage: its operator, checked arguments, and the element types in and out.
public struct CheckedStage: Sendable {
  /// What kind of node to build.
  public enum Node: Sendable {
    /// A source, operator or sink of the operator registry.
    case signature(String)
    /// `( PIPELINE )` as a source.
    case group
    /// The hot part of a `let` fragment containing `share`, built once per binding id.
    case shared(Int)
  }

  public let node: Node
  public let role: OperatorRole
  /// The stage as written, for errors, `trace` and `inspect`.
  public let text: String
  public let range: SourceRange
  public let arguments: [String: CheckedArgument]
  /// A combinator's inputs, a group's pipeline, a shared fragment's hot part.
  public let inputs: [CheckedPipeline]
  public let inputType: ValueType?
  public let outputType: ValueType
  /// The `{ PIPELINE }` of `flatMap`: built once per element, with its deferred arguments worked
  /// out from that element.
  public let body: CheckedPipeline?

  public init(
    node: Node, role: OperatorRole, text: String, range: SourceRange, arguments: [String: CheckedArgument],
    inputs: [CheckedPipeline], inputType: ValueType?, outputType: ValueType, body: CheckedPipeline? = nil
  ) {
    self.body = body
    self.node = node
    self.role = role
    self.text = text
    self.range = range
    self.arguments = arguments
    self.inputs = inputs
    self.inputType = inputType
    self.outputType = outputType
  }

  /// The operator's name, or `(…)` / the fragment for the other nodes.
  public var name: String {
    switch node {
    case .signature(let name): name
    case .group: "(group)"
    case .shared: "(shared)"
    }
  }
}

/// Reading a checked argument by name: nil when the stage has no argument of that name and kind.
/// What builds a stage (the runtime's node, `compare`'s publisher) reports a missing required
/// one as a bug of pipesh's.
extension CheckedStage {
  public func value(_ name: String) -> Value? {
    if case .value(let value, _) = arguments[name] { return value }
    return nil
  }

  public func int(_ name: String) -> Int? {
    if case .int(let value) = value(name) { return value }
    return nil
  }

  public func string(_ name: String) -> String? {
    if case .string(let value) = value(name) { return value }
    return nil
  }

  public func bool(_ name: String) -> Bool? {
    if case .bool(let value) = value(name) { return value }
    return nil
  }

  public func values(_ name: String) -> [Value]? {
    if case .values(let values, _) = arguments[name] { return values }
    return nil
  }

  public func duration(_ name: String) -> Duration? {
    if case .duration(let duration) = arguments[name] { return duration }
    return nil
  }

  /// A name argument (`buffer … policy: newest`, `channel NAME`).
  public func word(_ name: String) -> String? {
    if case .name(let word) = arguments[name] { return word }
    return nil
  }

  public func closure(_ name: String) -> TypedExpr? {
    if case .closure(let expr) = arguments[name] { return expr }
    return nil
  }

  public func marble(_ name: String) -> MarbleDiagram? {
    if case .marble(let diagram) = arguments[name] { return diagram }
    return nil
  }
}

/// A checked pipeline: a source, stages, and (at top level) a sink.
public struct CheckedPipeline: Sendable {
  public let stages: [CheckedStage]
  public let text: String

  public init(stages: [CheckedStage], text: String) {
    self.stages = stages
    self.text = text
  }

  /// The element type of the last stage that is not a sink.
  public var elementType: ValueType {
    stages.last { $0.role != .sink }?.outputType ?? .never
  }

  public var sink: CheckedStage? {
    stages.last.flatMap { $0.role == .sink ? $0 : nil }
  }
}

/// A `let` binding.
public struct Binding: Sendable {
  public let name: String
  public let id: Int
  public let pipeline: Pipeline
  public let source: SourceFile
  /// A source fragment starts with a source; an operator fragment with an operator.
  public let isSource: Bool
  /// The element type of a source fragment.
  public let elementType: ValueType?
  /// Whether checking it failed; uses then report nothing more.
  public let isBroken: Bool
  /// How many stages one use of it expands to, fragments within it included.
  let stageCount: Int
  /// 1, plus the depth of the deepest fragment it uses.
  let depth: Int
}

/// What the checker knows between statements: `let` bindings and channel types.
public struct Environment: Sendable {
  /// The operators pipelines are checked against (the runtime's registry).
  public let operators: SignatureTable
  /// The latest binding of each name.
  public var bindings: [String: Binding] = [:]
  /// Every binding of each name, oldest first: a fragment's names mean what they meant where it
  /// was defined (a `let` that names itself means the one before).
  private var history: [String: [Binding]] = [:]
  /// Only bindings made before this id are seen (inside a fragment: those before it).
  var scopeLimit = Int.max
  public var channels: [String: ValueType] = [:]
  /// Channels whose type was guessed from a later `send` before checking: a declaration
  /// (`of: TYPE`) overrides the guess, and the `send` is the one reported.
  var guessedChannels: Set<String> = []
  /// Channels some statement fails: the session makes them as `AsyncThrowingChannel`s.
  public internal(set) var failingChannels: Set<String> = []
  var nextBindingID = 1

  /// The binding `name` means here.
  func binding(named name: String) -> Binding? {
    if let latest = bindings[name], latest.id < scopeLimit { return latest }
    return history[name]?.last { $0.id < scopeLimit }
  }

  /// Adds a binding; it hides the one of the same name from here on.
  mutating func bind(_ binding: Binding) {
    bindings[binding.name] = binding
    history[binding.name, default: []].append(binding)
  }

  /// The shell's commands (the shell's registry).
  public let commands: CommandTable

  public init(operators: SignatureTable, commands: CommandTable) {
    self.operators = operators
    self.commands = commands
  }

  /// What the parser needs to know of these commands and operators.
  public var grammar: Grammar {
    Grammar(
      commands: Set(commands.names),
      pipelineCommands: Dictionary(
        commands.all.filter(\.takesPipeline).map { ($0.name, Set($0.options)) }, uniquingKeysWith: { first, _ in first }
      ),
      combinators: operators.all.filter { $0.role == .combinator }.map(\.name),
      commandsAlsoStages: Set(commands.names).intersection(operators.names),
      pipelineClosures: Set(operators.pipelineClosures))
  }
}

/// A checked statement, ready to run.
public enum CheckedStatement: Sendable {
  case run(CheckedPipeline, background: Bool)
  case binding(Binding)
  case command(CheckedCommand, SourceRange)
}
