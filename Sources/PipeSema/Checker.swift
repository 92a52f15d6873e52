import PipeSyntax

/// Type-checks statements against an environment: every stage's element type is known before
/// anything runs, and every mismatch is a diagnostic at the right place.
public struct Checker {
  public internal(set) var environment: Environment
  public internal(set) var diagnostics: [Diagnostic] = []
  let source: SourceFile
  /// The types of `$0` while checking the body of `flatMap { … }`: arguments that mention it are
  /// worked out per element. Nil outside such a body.
  var elementArguments: [ValueType]?

  public init(environment: Environment, source: SourceFile) {
    self.environment = environment
    self.source = source
  }

  /// Checks a whole script: all or nothing. Channel types that a later `send` or `into` fixes are
  /// known to an earlier `channel NAME`, so the script is checked a second time when that helped.
  public static func check(
    _ script: Script, in environment: Environment
  ) -> (
    statements: [CheckedStatement], environment: Environment, diagnostics: [Diagnostic]
  ) {
    var start = environment
    for statement in script.statements {
      // A channel failed anywhere in the script is a throwing one from its first use.
      if case .command(let name, let arguments, _) = statement.kind,
        case .failure = start.commands[name.name]?.signature.form,
        let first = arguments.first, case .name(let channel) = first.value.kind
      {
        start.failingChannels.insert(channel)
      }
      guard case .command(let name, let arguments, _) = statement.kind,
        case .values = start.commands[name.name]?.signature.form,
        let channel = arguments.first, case .name(let channelName) = channel.value.kind,
        start.channels[channelName] == nil, arguments.count > 1
      else { continue }
      // The channel's type is what all the values of its first send have in common.
      var constants = ConstantChecker()
      var type: ValueType? = .never
      for argument in arguments.dropFirst() {
        guard let known = type, let (_, valueType) = constants.check(argument.value) else { break }
        type = ValueType.join(known, valueType)
      }
      if let type, type != .never {
        start.channels[channelName] = type
        start.guessedChannels.insert(channelName)
      }
    }
    var result = checkOnce(script, start)
    if result.2.contains(where: { $0.id == .channelTypeUnknown }) {
      var retry = start
      for (name, type) in result.1.channels where retry.channels[name] == nil {
        retry.channels[name] = type
        retry.guessedChannels.insert(name)
      }
      if retry.channels.count > start.channels.count { result = checkOnce(script, retry) }
    }
    let all = (script.diagnostics + result.2).sorted { $0.range.start < $1.range.start }
    return (result.0, result.1, all)
  }

  private static func checkOnce(
    _ script: Script, _ environment: Environment
  ) -> (
    [CheckedStatement], Environment, [Diagnostic]
  ) {
    var checker = Checker(environment: environment, source: script.source)
    var statements: [CheckedStatement] = []
    for statement in script.statements {
      if let checked = checker.check(statement) { statements.append(checked) }
    }
    return (statements, checker.environment, checker.diagnostics)
  }

  // MARK: statements

  public mutating func check(_ statement: Statement) -> CheckedStatement? {
    switch statement.kind {
    case .run(let pipeline, let background):
      return checkTopLevel(pipeline).map { .run($0, background: background) }
    case .binding(let name, let pipeline):
      return checkBinding(name, pipeline)
    case .command(let name, let arguments, let pipeline):
      return checkCommand(name, arguments, pipeline, statement.range).map { .command($0, statement.range) }
    }
  }

  private mutating func checkBinding(_ name: Identifier, _ pipeline: Pipeline) -> CheckedStatement? {
    if environment.operators[name.name] != nil || environment.commands[name.name] != nil || name.name == "let" {
      diagnostics.append(SemaMessages.reserved(name.name, name.range))
      return nil
    }
    let before = diagnostics.count
    let first = pipeline.stages.first
    let isSource = first.map { isSourceStage($0) } ?? true
    var elementType: ValueType?
    let expansion = expansion(of: pipeline)
    if !withinExpansionLimits(pipeline) {
      // Not checked: checking expands it.
    } else if isSource {
      elementType = checkPipeline(pipeline, input: nil, allowSink: false)?.elementType
    } else {
      for stage in pipeline.stages { _ = resolveName(of: stage) }
    }
    let broken = diagnostics.count > before || expansion.usesBroken
    let binding = Binding(
      name: name.name, id: environment.nextBindingID, pipeline: pipeline, source: source, isSource: isSource,
      elementType: elementType, isBroken: broken, stageCount: expansion.stages,
      depth: expansion.depth + 1, levels: expansion.levels)
    environment.nextBindingID += 1
    environment.bind(binding)
    return broken ? nil : .binding(binding)
  }

  private func isSourceStage(_ stage: Stage) -> Bool {
    switch stage.kind {
    case .group, .combinator, .missing: return true
    case .call(let name, _):
      if let binding = environment.binding(named: name.name) { return binding.isSource }
      return environment.operators[name.name].map { $0.role == .source || $0.role == .combinator } ?? true
    }
  }

  /// Reports an unknown stage name; true when it is known.
  private mutating func resolveName(of stage: Stage) -> Bool {
    guard case .call(let name, _) = stage.kind else { return true }
    if environment.operators[name.name] != nil || environment.binding(named: name.name) != nil { return true }
    reportUnknown(name)
    return false
  }

  mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

  mutating func diagnosticsAppend(_ more: [Diagnostic]) { diagnostics.append(contentsOf: more) }

  mutating func setChannel(_ name: String, _ type: ValueType) { environment.channels[name] = type }

  private mutating func reportUnknown(_ name: Identifier) {
    let candidates = environment.operators.names + Array(environment.bindings.keys)
    var diagnostic = SemaMessages.unknownOperator(name.name, name.range)
    if let foreign = ForeignName.named(name.name) {
      for note in foreign.notes { diagnostic = diagnostic.adding(note: note) }
    } else if let suggestion = NameSuggester.suggestion(for: name.name, in: candidates) {
      diagnostic = diagnostic.adding(note: "did you mean '\(suggestion)'?")
    } else if ["serve", "attach", "test", "lsp", "fmt"].contains(name.name) {
      // pipesh's own subcommands are run from the system's shell, not typed at the prompt.
      diagnostic = diagnostic.adding(
        note: "pipesh \(name.name) is run from the system's shell, not in pipesh (pipesh --help lists them"
          + (["serve", "attach"].contains(name.name) ? "; help \(name.name) says more)" : ")"))
    } else if environment.commands[name.name] != nil {
      diagnostic = diagnostic.adding(note: "'\(name.name)' is a command: it stands at the start of a statement")
    } else {
      diagnostic = diagnostic.adding(note: "'ops' lists the operators")
    }
    diagnostics.append(diagnostic)
  }

  /// A pipeline run as a statement: a sink is added when it has none.
  public mutating func checkTopLevel(_ pipeline: Pipeline) -> CheckedPipeline? {
    guard withinExpansionLimits(pipeline), let checked = checkPipeline(pipeline, input: nil, allowSink: true) else {
      return nil
    }
    if checked.sink != nil { return checked }
    let sink = OperatorKind.implicitSink
    let range = SourceRange(pipeline.range.end, pipeline.range.end)
    guard
      let print = stage(
        kind: sink, role: .sink, text: sink.name, range: range, arguments: [:], inputs: [],
        inputType: checked.elementType, outputType: checked.elementType)
    else { return nil }
    return CheckedPipeline(stages: checked.stages + [print], text: checked.text)
  }

  // MARK: pipelines

  /// Checks a pipeline; `input` is nil for one that starts with a source, else the element type
  /// an operator fragment receives.
  mutating func checkPipeline(_ pipeline: Pipeline, input: ValueType?, allowSink: Bool) -> CheckedPipeline? {
    var stages: [CheckedStage] = []
    var current = input
    var failed = false
    for (index, stage) in pipeline.stages.enumerated() {
      let isSourcePosition = index == 0 && input == nil
      if let previous = stages.last, previous.role == .sink {
        // Combine's print("LABEL") is an operator: it logs and passes values on, as tap does.
        let isPrint = if case .operation(let operation) = previous.node { operation.kind == .print } else { false }
        diagnostics.append(
          SemaMessages.misplaced(
            "'\(previous.name)' is a sink and must be the last stage", previous.range,
            note: isPrint
              ? "did you mean 'tap \"LABEL\"'? Combine's print(_:) logs each event and passes values on, as tap does"
                + " ('help tap'); pipesh's print is a sink"
              : "remove the stages after it, or use an operator here"))
        failed = true
        break
      }
      guard let checked = checkStage(stage, input: current, isSourcePosition: isSourcePosition) else {
        failed = true
        // Later stages are still checked for names, so a script shows all its errors.
        current = nil
        for later in pipeline.stages.dropFirst(index + 1) { _ = resolveName(of: later) }
        break
      }
      stages.append(contentsOf: checked)
      current = checked.last?.outputType
      if let type = current, type.depth > Self.maximumTypeDepth {
        diagnostics.append(SemaMessages.typeTooDeep(type, stage.range))
        failed = true
        break
      }
    }
    if failed { return nil }
    if !allowSink, let sink = stages.last, sink.role == .sink {
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(sink.name)' is a sink and cannot stand here", sink.range,
          note: "an input of a combinator, a group, a fragment or a flatMap body ends without a sink"))
      return nil
    }
    return CheckedPipeline(stages: stages, text: source.displayText(of: pipeline.range))
  }

  /// Checks one stage; a fragment expands to several.
  private mutating func checkStage(_ stage: Stage, input: ValueType?, isSourcePosition: Bool) -> [CheckedStage]? {
    let text = source.displayText(of: stage.range)
    switch stage.kind {
    case .missing:
      return nil
    case .group(let inner):
      // `( PIPELINE )` as a source only sets its options apart (`draw (marble "ab|" tick: 2) | …`):
      // its stages are the pipeline's, so no node stands for the parentheses.
      return checkPipeline(inner, input: nil, allowSink: false)?.stages
    case .combinator(let name, let inputs):
      guard let signature = environment.operators[name.name], signature.role == .combinator else {
        if environment.operators[name.name] == nil, environment.binding(named: name.name) == nil {
          reportUnknown(name)
        } else {
          diagnostics.append(
            SemaMessages.misplaced(
              "'\(name.name)' is not a combinator", name.range,
              note:
                "combinators are \(environment.grammar.combinatorList); put a space before '(' for a tuple"))
        }
        return nil
      }
      guard isSourcePosition else {
        diagnostics.append(
          SemaMessages.misplaced(
            "'\(name.name)(…)' starts a pipeline and cannot follow '|'", name.range,
            note: "put it first, as in \(name.name)(P, P) | …"))
        return nil
      }
      let checkedInputs = inputs.map { checkPipeline($0, input: nil, allowSink: false) }
      let valid = checkedInputs.compactMap { $0 }
      guard valid.count == checkedInputs.count else { return nil }
      guard signature.inputCount.contains(valid.count) else {
        let count =
          signature.inputCount.lowerBound == signature.inputCount.upperBound
          ? "\(signature.inputCount.lowerBound)"
          : "\(signature.inputCount.lowerBound) to \(signature.inputCount.upperBound)"
        diagnostics.append(
          SemaMessages.wrongArgument(
            name.name, "takes \(count) pipelines, not \(valid.count)", stage.range, usage: signature.usage))
        return nil
      }
      var typing = StageTyping(
        name: name.name, input: .never, inputs: valid.map(\.elementType), stageRange: stage.range,
        usage: signature.usage, syntax: [:])
      let output = signature.typing(&typing)
      diagnostics.append(contentsOf: typing.diagnostics)
      guard let output else { return nil }
      return self.stage(
        kind: signature.kind, role: .combinator, text: text, range: stage.range, arguments: [:], inputs: valid,
        inputType: nil, outputType: output
      ).map { [$0] }
    case .call(let name, let arguments):
      if let binding = environment.binding(named: name.name) {
        return expand(binding, at: stage, arguments: arguments, input: input, isSourcePosition: isSourcePosition)
      }
      guard let signature = environment.operators[name.name] else {
        reportUnknown(name)
        return nil
      }
      return checkCall(signature, stage, name, arguments, input: input, isSourcePosition: isSourcePosition)
        .map { [$0] }
    }
  }

  private mutating func checkCall(
    _ signature: OperatorSignature, _ stage: Stage, _ name: Identifier, _ arguments: [Argument],
    input: ValueType?, isSourcePosition: Bool
  ) -> CheckedStage? {
    switch (signature.role, isSourcePosition) {
    case (.source, false):
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(name.name)' is a source and cannot follow '|'", name.range,
          note: "combine sources with merge(…), zip(…), combineLatest(…) or chain(…)"))
      return nil
    case (.combinator, _):
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(name.name)' takes its inputs in parentheses", name.range,
          note: "write \(signature.usage), with no space before '('"))
      return nil
    case (.operator, true), (.sink, true):
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(name.name)' is \(signature.role == .sink ? "a sink" : "an operator") and needs an input", name.range,
          note: "a pipeline starts with a source, as in 'from 1 2 3 | \(name.name)…'"))
      return nil
    default:
      break
    }
    guard input != nil || isSourcePosition else { return nil }
    var typing = StageTyping(
      name: name.name, input: input ?? .never, inputs: [], stageRange: stage.range, usage: signature.usage,
      syntax: [:])
    guard bind(arguments, to: signature, &typing) else {
      diagnostics.append(contentsOf: typing.diagnostics)
      return nil
    }
    var body: CheckedPipeline?
    if let parameter = signature.parameters.first(where: { $0.kind == .pipeline }),
      case .pipeline(let pipeline) = typing.syntax[parameter.name]?.value.kind
    {
      // Checked once, with `$0` of the element type.
      let outer = elementArguments
      elementArguments = [input ?? .never]
      body = checkPipeline(pipeline, input: nil, allowSink: false)
      elementArguments = outer
      guard let body else { return nil }
      typing.body = body.elementType
    }
    // A `( PIPELINE )` argument (`chunked by: (timer 1)`) is a pipeline of its own, from a source;
    // it becomes the stage's input. Its elements may be of any type.
    var inputs: [CheckedPipeline] = []
    for parameter in signature.parameters where parameter.kind == .sequence {
      guard case .sequence = typing.checked[parameter.name],
        case .pipeline(let pipeline) = typing.syntax[parameter.name]?.value.kind
      else { continue }
      guard let sequence = checkPipeline(pipeline, input: nil, allowSink: false) else { return nil }
      inputs.append(sequence)
    }
    var output = signature.typing(&typing)
    if let end = signature.channel { output = typeChannel(end, &typing, output) }
    diagnostics.append(contentsOf: typing.diagnostics)
    guard let output, typing.diagnostics.isEmpty else { return nil }
    return self.stage(
      kind: signature.kind, role: signature.role, text: source.displayText(of: stage.range), range: stage.range,
      arguments: typing.checked, inputs: inputs, inputType: input, outputType: output, body: body)
  }

  /// A stage of the catalogue. Its definition reads what the check produced: an argument it lacks
  /// is a bug of pipesh's, reported as such.
  private mutating func stage(
    kind: OperatorKind, role: OperatorRole, text: String, range: SourceRange, arguments: [String: CheckedArgument],
    inputs: [CheckedPipeline], inputType: ValueType?, outputType: ValueType, body: CheckedPipeline? = nil
  ) -> CheckedStage? {
    do {
      return try CheckedStage(
        kind: kind, role: role, text: text, range: range, arguments: arguments, inputs: inputs, inputType: inputType,
        outputType: outputType, body: body)
    } catch {
      diagnostics.append(SemaMessages.missingArgument(kind.name, error.parameter, range))
      return nil
    }
  }
}
