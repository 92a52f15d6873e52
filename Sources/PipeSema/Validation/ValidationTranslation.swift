import PipeSyntax

/// Turns AA's Swift expression into a pipesh pipeline, stage by stage, each stage's range the
/// Swift that makes it (so a checker's error points into the block).
struct ValidationTranslation {
  let source: SourceFile
  let grammar: Grammar
  /// `$0`, or the name the block gives the diagram.
  let parameter: String
  /// Each input's diagram in `marble`'s notation, and where it is written.
  let inputs: [(text: String, range: SourceRange)]
  var problem: Diagnostic?

  private mutating func fail(_ message: String, _ range: SourceRange, notes: [String] = []) -> Pipeline? {
    if problem == nil {
      problem = Diagnostic(id: .validationOperator, message: "validate: \(message)", range: range, notes: notes)
    }
    return nil
  }

  private func text(_ expression: SwiftExpr) -> String { source.text(of: expression.range) }

  /// An expression that makes an `AsyncSequence`: an input, an operator applied to one, a
  /// combinator over several, a timer.
  mutating func sequence(_ expression: SwiftExpr) -> Pipeline? {
    switch expression.kind {
    case .subscripted(let base, let index):
      guard case .member(let diagram?, let name) = base.kind, name.name == "inputs", isDiagram(diagram) else {
        return fail("'\(text(expression))' is not a sequence validate knows", expression.range)
      }
      guard case .integer(let number) = index.kind else {
        return fail("an input is named by a number: \(parameter).inputs[0]", index.range)
      }
      guard number >= 0, number < inputs.count else {
        return fail(
          "there is no input \(number): the block has \(inputs.count) input diagram\(inputs.count == 1 ? "" : "s")",
          index.range,
          notes: inputs.isEmpty ? ["write the input diagrams first, a string a line"] : [])
      }
      let input = inputs[number]
      let marble = Stage(
        .call(
          Identifier("marble", expression.range),
          [
            Argument(label: nil, value: Expr(.string([.text(input.text)]), input.range), range: input.range),
            Argument(
              label: Identifier("tick", expression.range),
              value: Expr(.duration(ValidationOperators.tick), expression.range), range: expression.range),
          ]), expression.range)
      return Pipeline(stages: [marble], range: expression.range)
    case .call(let callee, let arguments):
      if case .member(let base?, let name) = callee.kind {
        guard let upstream = sequence(base) else { return nil }
        let stageRange = SourceRange(name.range.start, expression.range.end)
        guard let stages = method(name, arguments, stageRange) else { return nil }
        return Pipeline(stages: upstream.stages + stages, range: expression.range)
      }
      if case .name(let name) = callee.kind {
        return function(Identifier(name, callee.range), arguments, expression.range)
      }
      return fail("'\(text(callee))' is not a function validate knows", callee.range)
    case .member(_, let name):
      return unknown(name.name, name.range)
    case .name(let name):
      if name == parameter {
        return fail(
          "\(parameter) is the diagram, not a sequence: write \(parameter).inputs[0]", expression.range)
      }
      return fail("'\(name)' is not a sequence validate knows", expression.range)
    case .unreadable(let what):
      return fail("pipesh does not read \(what) here", expression.range)
    case .integer, .string, .closure:
      return fail("expected a sequence here", expression.range)
    }
  }

  private func isDiagram(_ expression: SwiftExpr) -> Bool {
    if case .name(let name) = expression.kind { return name == parameter }
    return false
  }

  private mutating func unknown(_ name: String, _ range: SourceRange) -> Pipeline? {
    let note = NameSuggester.note(
      for: name, in: ValidationOperators.methodNames + ValidationOperators.functionNames)
    return fail(
      "'\(name)' is not an operator pipesh has", range,
      notes: [note, "pipesh has \(ValidationOperators.list)"].compactMap { $0 })
  }

  /// `merge(a, b)`, `zip(a, b, c)`, `AsyncTimerSequence(interval: .steps(N), clock: $0.clock)`.
  private mutating func function(_ name: Identifier, _ arguments: [SwiftArgument], _ range: SourceRange) -> Pipeline? {
    switch name.name {
    case "merge", "zip", "combineLatest", "chain":
      guard arguments.count >= 2, arguments.allSatisfy({ $0.label == nil }) else {
        return fail(
          "\(name.name) takes two or more sequences: \(name.name)(\(parameter).inputs[0], \(parameter).inputs[1])",
          range)
      }
      var inputs: [Pipeline] = []
      for argument in arguments {
        guard let input = sequence(argument.value) else { return nil }
        inputs.append(input)
      }
      return Pipeline(stages: [Stage(.combinator(name, inputs), range)], range: range)
    case "AsyncTimerSequence":
      guard labels(arguments, ["interval", "clock"], name.name, range),
        let interval = steps(arguments[0].value), clock(arguments[1].value)
      else { return nil }
      return Pipeline(stages: [call("timer", name.range, [(nil, interval)], range)], range: range)
    default:
      return unknown(name.name, name.range)
    }
  }

  /// One of AA's operators as a method: the pipesh stages it becomes.
  private mutating func method(_ name: Identifier, _ arguments: [SwiftArgument], _ range: SourceRange) -> [Stage]? {
    func one(_ stage: Stage?) -> [Stage]? { stage.map { [$0] } }
    switch name.name {
    case "_throttle", "throttle":
      let latest = arguments.count == 3 ? arguments[2] : nil
      guard labels(arguments, latest == nil ? ["for", "clock"] : ["for", "clock", "latest"], name.name, range),
        let interval = steps(arguments[0].value), clock(arguments[1].value)
      else { return nil }
      var pipeshArguments: [(String?, Expr)] = [(nil, interval)]
      if let latest {
        guard case .name(let word) = latest.value.kind, word == "true" || word == "false" else {
          _ = fail("latest: is true or false", latest.value.range)
          return nil
        }
        pipeshArguments.append(("latest", Expr(.bool(word == "true"), latest.value.range)))
      }
      return [call("throttle", name.range, pipeshArguments, range)]
    case "debounce":
      guard labels(arguments, ["for", "clock"], name.name, range), let interval = steps(arguments[0].value),
        clock(arguments[1].value)
      else { return nil }
      return [call("debounce", name.range, [(nil, interval)], range)]
    case "buffer":
      guard labels(arguments, ["policy"], name.name, range) else { return nil }
      return one(buffer(arguments[0].value, name, range))
    case "chunks":
      if arguments.count == 1 {
        guard labels(arguments, ["ofCount"], name.name, range), let count = integer(arguments[0].value) else {
          return nil
        }
        return [call("chunks", name.range, [(nil, count)], range)]
      }
      guard labels(arguments, ["ofCount", "or"], name.name, range), let count = integer(arguments[0].value) else {
        return nil
      }
      if !isRepeating(arguments[1].value) {
        guard let signal = signal(arguments[1].value) else { return nil }
        return [call("chunks", name.range, [(nil, count), ("or", signal)], range)]
      }
      guard let every = repeating(arguments[1].value, what: "chunks(ofCount:or:)") else { return nil }
      return [call("chunks", name.range, [(nil, count), ("every", every)], range)]
    case "chunked":
      guard arguments.count == 1, arguments[0].label?.name == "by" else {
        return refuse(
          "chunked(on:)", range,
          instead: "chunked(by: .repeating(every: .steps(N), clock: \(parameter).clock)) (pipesh's chunked INTERVAL)")
      }
      if case .closure = arguments[0].value.kind {
        return closureStage("chunked", name, arguments[0].value, range)
      }
      if !isRepeating(arguments[0].value) {
        guard let signal = signal(arguments[0].value) else { return nil }
        return [call("chunked", name.range, [("by", signal)], range)]
      }
      guard let every = repeating(arguments[0].value, what: "chunked(by:)") else { return nil }
      return [call("chunked", name.range, [(nil, every)], range)]
    case "removeDuplicates", "compacted", "adjacentPairs":
      guard arguments.isEmpty else {
        return refuse(
          "\(name.name)(\(arguments.map { ($0.label?.name ?? "_") + ":" }.joined()))", range,
          instead: "\(name.name)() (pipesh's \(name.name))")
      }
      return [call(name.name, name.range, [], range)]
    case "prefix", "dropFirst":
      let pipesh = name.name == "prefix" ? "take" : "drop"
      if arguments.count == 1, arguments[0].label?.name == "while" {
        return closureStage(name.name == "prefix" ? "takeWhile" : "dropWhile", name, arguments[0].value, range)
      }
      if arguments.isEmpty, name.name == "dropFirst" {
        return [call(pipesh, name.range, [(nil, Expr(.integer(1), name.range))], range)]
      }
      guard labels(arguments, [nil], name.name, range), let count = integer(arguments[0].value) else { return nil }
      return [call(pipesh, name.range, [(nil, count)], range)]
    case "drop":
      guard arguments.count == 1, arguments[0].label?.name == "while" else {
        return refuse("drop", range, instead: "dropFirst(N) or drop(while:)")
      }
      return closureStage("dropWhile", name, arguments[0].value, range)
    case "map", "filter", "compactMap":
      guard arguments.count == 1, arguments[0].label == nil else {
        return refuse(name.name, range, instead: "\(name.name) { … } with one closure")
      }
      return closureStage(name.name, name, arguments[0].value, range)
    case "interspersed":
      guard labels(arguments, ["with"], name.name, range) else { return nil }
      guard case .string(let text) = arguments[0].value.kind else {
        return refuse("interspersed(with:) of anything but a string", range, instead: "interspersed(with: \"x\")")
      }
      return [call("interspersed", name.range, [(nil, Expr(.string([.text(text)]), arguments[0].value.range))], range)]
    default:
      _ = unknown(name.name, name.range)
      return nil
    }
  }

  private mutating func refuse(_ what: String, _ range: SourceRange, instead: String) -> [Stage]? {
    _ = fail("pipesh has no \(what)", range, notes: ["pipesh has \(instead)"])
    return nil
  }

  /// `.bufferingOldest(N)`, `.bufferingLatest(N)`, `.bounded(N)`, `.unbounded`.
  private mutating func buffer(_ policy: SwiftExpr, _ name: Identifier, _ range: SourceRange) -> Stage? {
    if case .member(nil, let word) = policy.kind, word.name == "unbounded" {
      return call("buffer", name.range, [(nil, Expr(.name("unbounded"), policy.range))], range)
    }
    guard case .call(let callee, let arguments) = policy.kind, case .member(nil, let word) = callee.kind,
      let pipeshPolicy = ["bufferingOldest": "oldest", "bufferingLatest": "newest", "bounded": "bounded"][word.name]
    else {
      _ = fail(
        "'\(text(policy))' is not a buffer policy", policy.range,
        notes: ["AA's policies: .bounded(N), .bufferingOldest(N), .bufferingLatest(N), .unbounded"])
      return nil
    }
    guard labels(arguments, [nil], word.name, policy.range), let count = integer(arguments[0].value) else { return nil }
    return call(
      "buffer", name.range, [(nil, count), ("policy", Expr(.name(pipeshPolicy), word.range))], range)
  }

  /// `{ closure }` read as pipesh's, or `concatCharacters`, AA's tests' helper that joins an array.
  private mutating func closureStage(
    _ pipesh: String, _ name: Identifier, _ argument: SwiftExpr, _ range: SourceRange
  ) -> [Stage]? {
    switch argument.kind {
    case .closure:
      let (expression, diagnostics) = Parser.parseExpression(source, range: argument.range, grammar: grammar)
      if let first = diagnostics.first {
        _ = fail(
          "pipesh cannot run this closure: \(name.name)'s closure must be one of pipesh's expressions", argument.range,
          notes: [
            "reading it as one: \(first.message)",
            "pipesh's closures are expressions over $0 and $1: { _ in \"x\" }, { $0 + \"!\" }, { $0.joined() }, { $0 != \"b\" }",
          ])
        return nil
      }
      return [call(pipesh, name.range, [(nil, expression)], range)]
    case .name("concatCharacters") where pipesh == "map":
      let at = argument.range
      let joined = Expr(
        .call(Expr(.member(Expr(.dollar(0), at), Identifier("joined", at)), at), []), at)
      return [call("map", name.range, [(nil, Expr(.closure(joined, parameters: []), at))], range)]
    default:
      _ = fail(
        "pipesh cannot run '\(text(argument))' here", argument.range,
        notes: ["pipesh reads a closure { … } of its own expressions, or concatCharacters (AA's tests' helper)"])
      return nil
    }
  }

  /// Whether the expression is `.repeating(…)`, a timer; anything else is a signal sequence.
  private func isRepeating(_ expression: SwiftExpr) -> Bool {
    guard case .call(let callee, _) = expression.kind, case .member(nil, let word) = callee.kind else { return false }
    return word.name == "repeating"
  }

  /// A signal sequence (`$0.inputs[1]`): pipesh's `( PIPELINE )` argument of `chunked by:` and
  /// `chunks N or:`.
  private mutating func signal(_ expression: SwiftExpr) -> Expr? {
    guard let pipeline = sequence(expression) else { return nil }
    return Expr(.pipeline(pipeline), expression.range)
  }

  /// `.repeating(every: .steps(N), clock: $0.clock)`: the interval.
  private mutating func repeating(_ expression: SwiftExpr, what: String) -> Expr? {
    guard case .call(let callee, let arguments) = expression.kind, case .member(nil, let word) = callee.kind,
      word.name == "repeating"
    else {
      _ = fail(
        "pipesh's \(what) takes a timer, .repeating(every: .steps(N), clock: \(parameter).clock), or a sequence, not '\(text(expression))'",
        expression.range)
      return nil
    }
    guard labels(arguments, ["every", "clock"], "repeating", expression.range),
      let interval = steps(arguments[0].value),
      clock(arguments[1].value)
    else { return nil }
    return interval
  }

  /// Checks the labels of a call: `nil` stands for an unlabelled argument.
  private mutating func labels(
    _ arguments: [SwiftArgument], _ expected: [String?], _ name: String, _ range: SourceRange
  ) -> Bool {
    let written = arguments.map { $0.label?.name }
    guard written == expected else {
      let spelled = expected.map { ($0 ?? "_") + ":" }.joined()
      let found = written.map { ($0 ?? "_") + ":" }.joined()
      _ = fail(
        "\(name)(\(found)) is not how AA writes it: \(name)(\(spelled))", range,
        notes: ["validate reads AA's own spelling of each operator"])
      return false
    }
    return true
  }

  /// `.steps(N)`: N ticks.
  private mutating func steps(_ expression: SwiftExpr) -> Expr? {
    guard case .call(let callee, let arguments) = expression.kind, case .member(nil, let word) = callee.kind,
      word.name == "steps", arguments.count == 1, arguments[0].label == nil,
      case .integer(let count) = arguments[0].value.kind
    else {
      _ = fail(
        "a time in a validation diagram is .steps(N), N a whole number of steps, not '\(text(expression))'",
        expression.range)
      return nil
    }
    guard count >= 0, count <= 1_000_000 else {
      _ = fail("'\(text(expression))': a number of steps from 0 to 1000000", expression.range)
      return nil
    }
    return Expr(.duration(ValidationOperators.tick * count), expression.range)
  }

  /// `$0.clock`: the diagram's clock, the only one validate knows.
  private mutating func clock(_ expression: SwiftExpr) -> Bool {
    guard case .member(let base?, let name) = expression.kind, isDiagram(base), name.name == "clock" else {
      _ = fail("the clock is the diagram's: \(parameter).clock, not '\(text(expression))'", expression.range)
      return false
    }
    return true
  }

  private mutating func integer(_ expression: SwiftExpr) -> Expr? {
    guard case .integer(let value) = expression.kind else {
      _ = fail("expected a whole number here, not '\(text(expression))'", expression.range)
      return nil
    }
    return Expr(.integer(value), expression.range)
  }

  private func call(_ name: String, _ at: SourceRange, _ arguments: [(String?, Expr)], _ range: SourceRange) -> Stage {
    Stage(
      .call(
        Identifier(name, at),
        arguments.map { label, value in
          Argument(label: label.map { Identifier($0, value.range) }, value: value, range: value.range)
        }), range)
  }
}

extension DiagnosticID {
  public static let validationDiagram = DiagnosticID("validation-diagram")
  public static let validationOperator = DiagnosticID("validation-operator")
}
