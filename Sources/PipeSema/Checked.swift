import PipeSyntax

/// A checked stage: its operation, and the element types in and out.
public struct CheckedStage: Sendable {
  /// What kind of node to build.
  public enum Node: Sendable {
    /// A source, combinator, operator or sink of the catalogue, with its arguments as written.
    case operation(Operation<Written>)
    /// The hot part of a `let` fragment containing `share`, built once per binding id.
    case shared(Int)
  }

  public let node: Node
  /// The operation with every argument known; nil while some argument of a `flatMap` body's
  /// stage is still to be worked out from an element (`resolved(evaluate:)` works it out).
  public let operation: Operation<Resolved>?
  public let role: OperatorRole
  /// The stage as written, for errors, `trace` and `inspect`.
  public let text: String
  public let range: SourceRange
  /// The checked arguments by parameter name, read through the operator's definition only.
  let arguments: [String: CheckedArgument]
  /// A combinator's inputs, an operator's `( PIPELINE )` argument (`chunked by: (timer 1)`), a
  /// shared fragment's hot part.
  public let inputs: [CheckedPipeline]
  public let inputType: ValueType?
  public let outputType: ValueType
  /// The `{ PIPELINE }` of `flatMap`, as checked.
  public let body: CheckedPipeline?

  /// A stage of the catalogue: its definition reads the arguments into an operation, as written
  /// and (when none is worked out per element) resolved.
  init(
    kind: OperatorKind, role: OperatorRole, text: String, range: SourceRange, arguments: [String: CheckedArgument],
    inputs: [CheckedPipeline], inputType: ValueType?, outputType: ValueType, body: CheckedPipeline? = nil
  ) throws(MissingArgument) {
    let definition = kind.definition
    node = .operation(try definition.operation(ArgumentReader<Written>(arguments, body: body, inputs: inputs)))
    operation =
      arguments.values.contains(where: \.isDeferred)
      ? nil : try definition.operation(ArgumentReader<Resolved>(arguments, body: body, inputs: inputs))
    self.role = role
    self.text = text
    self.range = range
    self.arguments = arguments
    self.inputs = inputs
    self.inputType = inputType
    self.outputType = outputType
    self.body = body
  }

  /// A shared fragment.
  init(
    node: Node, text: String, range: SourceRange, inputs: [CheckedPipeline], outputType: ValueType
  ) {
    self.node = node
    operation = nil
    role = .source
    self.text = text
    self.range = range
    arguments = [:]
    self.inputs = inputs
    inputType = nil
    self.outputType = outputType
    body = nil
  }

  /// `drain` where `sink` stood: it takes no arguments.
  fileprivate init(drainReplacing sink: CheckedStage) {
    node = .operation(.drain)
    operation = .drain
    role = .sink
    text = OperatorKind.drain.name
    range = sink.range
    arguments = [:]
    inputs = []
    inputType = sink.inputType
    outputType = sink.outputType
    body = nil
  }

  private init(_ stage: CheckedStage, text: String, inputs: [CheckedPipeline]) {
    node = stage.node
    operation = stage.operation
    role = stage.role
    self.text = text
    range = stage.range
    arguments = stage.arguments
    self.inputs = inputs
    inputType = stage.inputType
    outputType = stage.outputType
    body = stage.body
  }

  /// The same stage written differently (`flatMap`'s children say which element they are for).
  public func with(text: String, inputs: [CheckedPipeline]) -> CheckedStage {
    CheckedStage(self, text: text, inputs: inputs)
  }

  /// The channel a `channel NAME` or `into NAME` stage names.
  public var channelName: String? {
    guard let end = kind?.signature.channel, case .name(let name) = arguments[end.name.name] else { return nil }
    return name
  }

  /// Whether the stage has a duration argument: it acts on deadlines of its own.
  public var isTimed: Bool {
    arguments.values.contains { if case .duration = $0 { true } else { false } }
  }

  /// The operator of a catalogue stage.
  public var kind: OperatorKind? {
    if case .operation(let operation) = node { return operation.kind }
    return nil
  }

  /// The operator's name, or `(…)` / the fragment for the other nodes.
  public var name: String {
    switch node {
    case .operation(let operation): operation.kind.name
    case .shared: "(shared)"
    }
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

  /// Every stage, with those of combinators' inputs, groups, fragments and `flatMap` bodies.
  public var allStages: [CheckedStage] {
    stages.flatMap { stage in [stage] + stage.inputs.flatMap(\.allStages) + (stage.body?.allStages ?? []) }
  }

  /// The channels, streams and subjects the pipeline reads or sends into, anywhere in it.
  public var channelNames: Set<String> { Set(allStages.compactMap(\.channelName)) }

  /// Whether the pipeline ends in the sink the checker added (`print`), none being written.
  public var hasImplicitSink: Bool {
    guard let sink, sink.kind == OperatorKind.implicitSink else { return false }
    return sink.range.start == sink.range.end
  }

  /// The pipeline with its implicit sink replaced by `drain`, which prints nothing.
  public func withQuietSinkIfImplicit() -> CheckedPipeline {
    guard hasImplicitSink, let sink else { return self }
    let drain = CheckedStage(drainReplacing: sink)
    return CheckedPipeline(stages: stages.dropLast() + [drain], text: text)
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
  /// How deep pipelines nest in it, its fragments' included (`Expansion.levels`).
  let levels: Int
}

/// What the checker knows between statements: `let` bindings and channel types.
public struct Environment: Sendable {
  /// The operators pipelines are checked against (the catalogue's).
  public let operators = OperatorKind.signatures
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
  /// The names declared as streams and subjects (the others are channels): the session makes
  /// them so from their first use.
  public internal(set) var endpoints: [String: Endpoint] = [:]
  /// The names a `channel` or `into` stage uses: they cannot be streams or subjects too.
  var plainChannels: Set<String> = []
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

  /// The shell's commands (their grammar; what they do is the shell's).
  public let commands: CommandTable

  /// The environment a session starts from: the catalogue's operators, the commands (the shell's,
  /// `Environment.pipesh` in `PipeShell`, or a test's own), no names.
  public init(commands: CommandTable) {
    self.commands = commands
  }

  /// What the parser needs to know of these commands and operators.
  public var grammar: Grammar {
    let commands = commands.signatures
    return Grammar(
      commands: Set(commands.map(\.name)),
      pipelineCommands: Dictionary(
        commands.filter(\.takesPipeline).map { ($0.name, Set($0.options)) }, uniquingKeysWith: { first, _ in first }
      ),
      combinators: operators.all.filter { $0.role == .combinator }.map(\.name),
      commandsAlsoStages: Set(commands.map(\.name)).intersection(operators.names),
      pipelineClosures: Set(operators.pipelineClosures),
      pipelineArguments: operators.pipelineArguments,
      backgroundNotes: Dictionary(
        commands.compactMap { command in command.backgroundNote.map { (command.name, $0) } },
        uniquingKeysWith: { first, _ in first }),
      verbatimBlocks: Set(commands.filter(\.takesVerbatimBlock).map(\.name)),
      claimWords: Dictionary(
        commands.compactMap { command in
          if case .expectation = command.form { (command.name, Set(CheckedExpectation.Claim.words)) } else { nil }
        }, uniquingKeysWith: { first, _ in first }),
      stages: Set(operators.names),
      stageLabels: Dictionary(
        operators.all.map { ($0.name, Set($0.parameters.compactMap(\.label))) }, uniquingKeysWith: { first, _ in first }
      ))
  }
}

/// A checked statement, ready to run.
public enum CheckedStatement: Sendable {
  case run(CheckedPipeline, background: Bool)
  case binding(Binding)
  case command(CheckedCommand, SourceRange)
}

extension CheckedPipeline {
  /// The tick of the first `marble … tick:` in the pipeline, if any.
  public var marbleTick: Duration? {
    for stage in stages {
      if case .marble(_, let tick, _) = stage.operation { return tick }
      for input in stage.inputs { if let tick = input.marbleTick { return tick } }
    }
    return nil
  }
}
