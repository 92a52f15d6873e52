import PipeSyntax

/// Type-checks statements against an environment: every stage's element type is known before
/// anything runs, and every mismatch is a diagnostic at the right place.
public struct Checker {
  public private(set) var environment: Environment
  public private(set) var diagnostics: [Diagnostic] = []
  private let source: SourceFile

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
      guard case .command(let name, let arguments, _) = statement.kind,
        case .values = start.commands[name.name]?.form,
        let channel = arguments.first, case .name(let channelName) = channel.value.kind,
        start.channels[channelName] == nil, arguments.count > 1
      else { continue }
      var constants = ConstantChecker()
      if let (_, type) = constants.check(arguments[1].value) {
        start.channels[channelName] = type
        start.guessedChannels.insert(channelName)
      }
    }
    var result = checkOnce(script, start)
    if result.2.contains(where: { $0.id == "channel-type-unknown" }) {
      var retry = start
      for (name, type) in result.1.channels where retry.channels[name] == nil { retry.channels[name] = type }
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
    if isSource {
      elementType = checkPipeline(pipeline, input: nil, allowSink: false)?.elementType
    } else {
      for stage in pipeline.stages { _ = resolveName(of: stage) }
    }
    let broken = diagnostics.count > before
    let binding = Binding(
      name: name.name, id: environment.nextBindingID, pipeline: pipeline, source: source, isSource: isSource,
      elementType: elementType, isBroken: broken)
    environment.nextBindingID += 1
    environment.bindings[name.name] = binding
    return broken ? nil : .binding(binding)
  }

  private func isSourceStage(_ stage: Stage) -> Bool {
    switch stage.kind {
    case .group, .combinator, .missing: return true
    case .call(let name, _):
      if let binding = environment.bindings[name.name] { return binding.isSource }
      return environment.operators[name.name].map { $0.role == .source || $0.role == .combinator } ?? true
    }
  }

  /// Reports an unknown stage name; true when it is known.
  private mutating func resolveName(of stage: Stage) -> Bool {
    guard case .call(let name, _) = stage.kind else { return true }
    if environment.operators[name.name] != nil || environment.bindings[name.name] != nil { return true }
    reportUnknown(name)
    return false
  }

  mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

  mutating func diagnosticsAppend(_ more: [Diagnostic]) { diagnostics.append(contentsOf: more) }

  mutating func setChannel(_ name: String, _ type: ValueType) { environment.channels[name] = type }

  private mutating func reportUnknown(_ name: Identifier) {
    let candidates = environment.operators.names + Array(environment.bindings.keys)
    var diagnostic = SemaMessages.unknownOperator(name.name, name.range)
    if let suggestion = NameSuggester.suggestion(for: name.name, in: candidates) {
      diagnostic = diagnostic.adding(note: "did you mean '\(suggestion)'?")
    } else if environment.commands[name.name] != nil {
      diagnostic = diagnostic.adding(note: "'\(name.name)' is a command: it stands at the start of a statement")
    } else {
      diagnostic = diagnostic.adding(note: "'ops' lists the operators")
    }
    diagnostics.append(diagnostic)
  }

  /// A pipeline run as a statement: a sink is added when it has none.
  public mutating func checkTopLevel(_ pipeline: Pipeline) -> CheckedPipeline? {
    guard let checked = checkPipeline(pipeline, input: nil, allowSink: true) else { return nil }
    if checked.sink != nil { return checked }
    let print = CheckedStage(
      node: .signature("print"), role: .sink, text: "print", range: SourceRange(pipeline.range.end, pipeline.range.end),
      arguments: [:], inputs: [], inputType: checked.elementType, outputType: checked.elementType)
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
        diagnostics.append(
          SemaMessages.misplaced(
            "'\(previous.name)' is a sink and must be the last stage", previous.range,
            note: "remove the stages after it, or use an operator here"))
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
    }
    if failed { return nil }
    if !allowSink, let sink = stages.last, sink.role == .sink {
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(sink.name)' is a sink and cannot stand here", sink.range,
          note: "an input of a combinator, a group or a fragment ends without a sink"))
      return nil
    }
    return CheckedPipeline(stages: stages, text: source.text(of: pipeline.range))
  }

  /// Checks one stage; a fragment expands to several.
  private mutating func checkStage(_ stage: Stage, input: ValueType?, isSourcePosition: Bool) -> [CheckedStage]? {
    let text = source.text(of: stage.range)
    switch stage.kind {
    case .missing:
      return nil
    case .group(let inner):
      guard let checked = checkPipeline(inner, input: nil, allowSink: false) else { return nil }
      return [
        CheckedStage(
          node: .group, role: .source, text: text, range: stage.range, arguments: [:], inputs: [checked],
          inputType: nil, outputType: checked.elementType)
      ]
    case .combinator(let name, let inputs):
      guard let signature = environment.operators[name.name], signature.role == .combinator else {
        if environment.operators[name.name] == nil, environment.bindings[name.name] == nil {
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
      return [
        CheckedStage(
          node: .signature(signature.name), role: .combinator, text: text, range: stage.range, arguments: [:],
          inputs: valid, inputType: nil, outputType: output)
      ]
    case .call(let name, let arguments):
      if let binding = environment.bindings[name.name] {
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
    var output = signature.typing(&typing)
    if let end = signature.channel { output = typeChannel(end, &typing, output) }
    diagnostics.append(contentsOf: typing.diagnostics)
    guard let output, typing.diagnostics.isEmpty else { return nil }
    return CheckedStage(
      node: .signature(signature.name), role: signature.role, text: source.text(of: stage.range), range: stage.range,
      arguments: typing.checked, inputs: [], inputType: input, outputType: output)
  }

  /// `channel NAME` gets its type from the environment or `of:`; `into NAME` fixes it.
  private mutating func typeChannel(
    _ end: ChannelEnd, _ typing: inout StageTyping, _ output: ValueType?
  )
    -> ValueType?
  {
    guard let name = typing.name("name") else { return nil }
    let known = environment.channels[name]
    if end == .sending {
      if let known, ValueType.join(known, typing.input) != known {
        typing.error("channel '\(name)' carries '\(known)', but the elements are '\(typing.input)'")
        return nil
      }
      if known == nil { environment.channels[name] = typing.input }
      return output
    }
    if case .type(let declared) = typing.checked["of"] {
      if let known, known != declared, !environment.guessedChannels.contains(name) {
        typing.error("channel '\(name)' already carries '\(known)'", at: "of")
        return nil
      }
      environment.channels[name] = declared
      environment.guessedChannels.remove(name)
      return declared
    }
    guard let known else {
      typing.diagnostics.append(SemaMessages.channelTypeUnknown(name, typing.range(of: "name")))
      return nil
    }
    return known
  }

  /// Matches arguments to parameters and checks every non-closure argument.
  private func bind(_ arguments: [Argument], to signature: OperatorSignature, _ typing: inout StageTyping) -> Bool {
    var positional = signature.parameters.filter { $0.label == nil }
    let labelled = signature.parameters.filter { $0.label != nil }
    var repeated: [Argument] = []
    var ok = true
    // An optional positional before a closure (reductions [INIT] {e}) is skipped when only the closure is given.
    let positionalGiven = arguments.filter { $0.label == nil }.count
    if positionalGiven < positional.count, let optional = positional.firstIndex(where: \.isOptional) {
      positional.remove(at: optional)
    }
    var nextPositional = 0
    for (index, argument) in arguments.enumerated() {
      // `latest false`: a label written without its colon.
      if argument.label == nil, case .name(let word) = argument.value.kind,
        labelled.contains(where: { $0.label == word }), index + 1 < arguments.count
      {
        let value = source.text(of: arguments[index + 1].range)
        typing.diagnostics.append(
          SemaMessages.wrongArgument(
            signature.name, "'\(word)' is a label: write '\(word): \(value)'", argument.range, usage: signature.usage))
        return false
      }
      if let label = argument.label {
        guard let parameter = labelled.first(where: { $0.label == label.name }) else {
          typing.diagnostics.append(
            SemaMessages.unknownLabel(
              label.name, signature.name, label.range, labels: labelled.compactMap(\.label)))
          ok = false
          continue
        }
        typing.syntax[parameter.name] = argument
        continue
      }
      guard nextPositional < positional.count else {
        typing.diagnostics.append(
          SemaMessages.wrongArgument(
            signature.name, "too many arguments", argument.range, usage: signature.usage))
        ok = false
        break
      }
      let parameter = positional[nextPositional]
      if parameter.repeats {
        repeated.append(argument)
      } else {
        typing.syntax[parameter.name] = argument
        nextPositional += 1
      }
    }
    for parameter in positional where !parameter.isOptional && !parameter.repeats {
      if typing.syntax[parameter.name] == nil, ok {
        typing.diagnostics.append(
          SemaMessages.wrongArgument(
            signature.name, "missing argument \(parameter.name.uppercased()) (\(parameter.help))", typing.stageRange,
            usage: signature.usage))
        ok = false
      }
    }
    for parameter in signature.parameters {
      if parameter.repeats {
        var constants = ConstantChecker()
        var values: [Value] = []
        var type = ValueType.never
        for argument in repeated {
          let reported = constants.diagnostics.count
          guard let (value, valueType) = constants.check(argument.value) else {
            // Nothing may be dropped silently: a word, a closure or an operator is an error here.
            if constants.diagnostics.count == reported {
              constants.diagnostics.append(
                SemaMessages.notAValue(describe(argument.value), signature.name, argument.range))
            }
            continue
          }
          guard let joined = ValueType.join(type, valueType) else {
            constants.diagnostics.append(SemaMessages.mixedArray(type, valueType, argument.range))
            continue
          }
          type = joined
          values.append(value)
        }
        typing.diagnostics.append(contentsOf: constants.diagnostics)
        if !constants.diagnostics.isEmpty { ok = false }
        if !values.isEmpty {
          typing.checked[parameter.name] = .values(values.map { convert($0, to: type) }, type)
        }
        continue
      }
      guard let argument = typing.syntax[parameter.name] else { continue }
      if let checked = checkArgument(argument, parameter, signature, &typing) {
        typing.checked[parameter.name] = checked
      } else if parameter.kind != .closure {
        ok = false
      }
    }
    return ok
  }

  private func checkArgument(
    _ argument: Argument, _ parameter: Parameter, _ signature: OperatorSignature, _ typing: inout StageTyping
  ) -> CheckedArgument? {
    let expr = argument.value
    if case .missing = expr.kind { return nil }
    func mismatch(_ expected: String) -> CheckedArgument? {
      let found = describe(expr)
      typing.diagnostics.append(
        SemaMessages.wrongArgument(
          signature.name,
          "\(parameter.label.map { "'\($0):'" } ?? parameter.name.uppercased()) must be \(expected), not \(found)",
          expr.range, usage: signature.usage))
      return nil
    }
    switch parameter.kind {
    case .closure:
      guard case .closure = expr.kind else { return mismatch("a closure { … }") }
      return nil
    case .name:
      guard case .name(let name) = expr.kind else { return mismatch("a name") }
      return .name(name)
    case .typeName:
      guard case .name(let name) = expr.kind, let type = ValueType(name: name) else {
        return mismatch("a type: Int, Double, String or Bool")
      }
      return .type(type)
    case .duration, .durationOrZero:
      let duration: Duration?
      switch expr.kind {
      case .duration(let value): duration = value
      case .integer(let value): duration = Duration.fromSeconds(Double(value))
      case .float(let value): duration = Duration.fromSeconds(value)
      default: return mismatch("a duration such as 1.5s or 250ms")
      }
      guard let duration, duration <= .seconds(Duration.maximumSeconds) else {
        return mismatch("at most 1000000000s (about 31 years)")
      }
      if parameter.kind == .durationOrZero {
        return duration >= .zero ? .duration(duration) : mismatch("0 or more")
      }
      if duration > .zero { return .duration(duration) }
      // Written as more than zero, but less than the clocks' resolution.
      let text = source.text(of: expr.range)
      let tiny = !text.hasPrefix("-") && text.contains { "123456789".contains($0) }
      return mismatch(tiny ? "at least 1ns" : "more than zero")
    default:
      if case .closure = expr.kind { return mismatch(expectedText(parameter.kind)) }
      if case .name(let word) = expr.kind, parameter.words.contains(word) {
        return .value(.string(word), .string)
      }
      var constants = ConstantChecker()
      guard let (value, type) = constants.check(expr) else {
        typing.diagnostics.append(contentsOf: constants.diagnostics)
        return constants.diagnostics.isEmpty ? mismatch(expectedText(parameter.kind)) : nil
      }
      switch (parameter.kind, value) {
      case (.int, .int), (.number, .int), (.number, .double), (.string, .string), (.bool, .bool), (.value, _):
        return .value(value, type)
      case (.count, .int(let count)) where count >= 0:
        return .value(value, type)
      default:
        return mismatch(expectedText(parameter.kind))
      }
    }
  }

  private func expectedText(_ kind: ParameterKind) -> String {
    switch kind {
    case .int: "an integer"
    case .count: "an integer, 0 or more"
    case .number: "a number"
    case .string: "a string"
    case .bool: "true or false"
    case .value: "a constant value"
    default: "a value"
    }
  }

  private func describe(_ expr: Expr) -> String {
    switch expr.kind {
    case .integer, .float, .duration: source.text(of: expr.range)
    case .string: "a string"
    case .bool: "a Bool"
    case .nilLiteral: "nil"
    case .closure: "a closure"
    case .name(let name): "'\(name)'"
    case .array: "an array"
    case .tuple: "a tuple"
    default: "an expression"
    }
  }

  // MARK: fragments

  private mutating func expand(
    _ binding: Binding, at stage: Stage, arguments: [Argument], input: ValueType?, isSourcePosition: Bool
  ) -> [CheckedStage]? {
    if binding.isBroken { return nil }
    if let first = arguments.first {
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(binding.name)' is a fragment and takes no arguments", first.range,
          note: "fragments are named pipelines, used by name alone"))
      return nil
    }
    if binding.isSource != isSourcePosition {
      let message =
        binding.isSource
        ? "'\(binding.name)' is a source fragment and cannot follow '|'"
        : "'\(binding.name)' is an operator fragment and needs an input"
      diagnostics.append(
        SemaMessages.misplaced(message, stage.range, note: "'names' shows the fragments and what they start with"))
      return nil
    }
    var inner = Checker(environment: environment, source: binding.source)
    inner.environment.bindings[binding.name] = nil  // no recursion through its own name
    let checked = inner.checkPipeline(binding.pipeline, input: input, allowSink: false)
    for (name, type) in inner.environment.channels where environment.channels[name] == nil {
      environment.channels[name] = type
    }
    if binding.source.text == source.text && binding.source.name == source.name {
      diagnostics.append(contentsOf: inner.diagnostics)
    } else {
      diagnostics.append(contentsOf: inner.diagnostics.map { SemaMessages.fragment(binding.name, $0, stage.range) })
    }
    guard let checked else { return nil }
    let sharing = checked.stages.firstIndex { environment.operators[$0.name]?.sharesUpstream == true }
    guard binding.isSource, let shareIndex = sharing else {
      return checked.stages
    }
    let hot = CheckedPipeline(
      stages: Array(checked.stages[...shareIndex]), text: binding.source.text(of: binding.pipeline.range))
    let shared = CheckedStage(
      node: .shared(binding.id), role: .source, text: binding.name, range: stage.range, arguments: [:], inputs: [hot],
      inputType: nil, outputType: hot.elementType)
    return [shared] + checked.stages[(shareIndex + 1)...]
  }
}

/// Folds constant expressions (literals, arrays, tuples) to values.
struct ConstantChecker {
  var diagnostics: [Diagnostic] = []

  mutating func check(_ expr: Expr) -> (Value, ValueType)? {
    switch expr.kind {
    case .integer(let value): return (.int(value), .int)
    case .float(let value): return (.double(value), .double)
    case .duration(let value): return (.double(value.inSeconds), .double)
    case .bool(let value): return (.bool(value), .bool)
    case .nilLiteral: return (.none, .optional(.never))
    case .string(let parts):
      guard parts.count == 1, case .text(let text) = parts[0] else { return nil }
      return (.string(text), .string)
    case .array(let elements):
      var values: [Value] = []
      var type = ValueType.never
      for element in elements {
        guard let (value, valueType) = check(element) else { return nil }
        guard let joined = ValueType.join(type, valueType) else {
          diagnostics.append(SemaMessages.mixedArray(type, valueType, element.range))
          return nil
        }
        type = joined
        values.append(value)
      }
      return (.array(values.map { convert($0, to: type) }), .array(type))
    case .tuple(let elements):
      var values: [Value] = []
      var types: [ValueType] = []
      for element in elements {
        guard let (value, type) = check(element) else { return nil }
        values.append(value)
        types.append(type)
      }
      return (.tuple(values), .tuple(types))
    default:
      return nil
    }
  }
}
