import PipeSyntax

/// Matching a stage's arguments to its operator's parameters, and checking each.
extension Checker {
  /// Matches arguments to parameters and checks every non-closure argument.
  func bind(_ arguments: [Argument], to signature: OperatorSignature, _ typing: inout StageTyping) -> Bool {
    var positional = signature.parameters.filter { $0.label == nil }
    let labelled = signature.parameters.filter { $0.label != nil }
    var repeated: [Argument] = []
    var ok = true
    // With one positional too few, an optional one is left out: one that is no closure when the
    // last given is a closure (reductions [INIT] {e}), else a closure (chunked INTERVAL | chunked {e}).
    let given = arguments.filter { $0.label == nil }
    if given.count < positional.count {
      let closureGiven = given.last.map { if case .closure = $0.value.kind { true } else { false } } ?? false
      if let optional = positional.firstIndex(where: { $0.isOptional && ($0.kind == .closure) != closureGiven })
        ?? positional.firstIndex(where: \.isOptional)
      {
        positional.remove(at: optional)
      }
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
        if let mention = repeated.first(where: \.value.mentionsArgument) {
          guard let elementArguments else {
            typing.diagnostics.append(
              SemaMessages.elementOutsideBody(mention.range, operators: environment.operators.pipelineClosures))
            ok = false
            continue
          }
          if let checked = deferredValues(repeated, elementArguments, signature, &typing) {
            typing.checked[parameter.name] = checked
          } else {
            ok = false
          }
          continue
        }
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
      } else if parameter.kind != .closure, parameter.kind != .pipeline {
        ok = false
      }
    }
    return ok
  }

  func checkArgument(
    _ argument: Argument, _ parameter: Parameter, _ signature: OperatorSignature, _ typing: inout StageTyping
  ) -> CheckedArgument? {
    let expr = argument.value
    if case .missing = expr.kind { return nil }
    func mismatch(_ expected: String) -> CheckedArgument? {
      typing.diagnostics.append(self.mismatch(expr, parameter, signature, expected: expected))
      return nil
    }
    switch parameter.kind {
    case .closure:
      guard case .closure = expr.kind else { return mismatch("a closure { … }") }
      return nil
    case .pipeline:
      guard case .pipeline = expr.kind else { return mismatch("a pipeline in braces, as in { from $0 $0 }") }
      return nil
    case .sequence:
      // The parser reads `( … )` after this label as a pipeline, which the checker checks next.
      guard case .pipeline = expr.kind else {
        return mismatch("a pipeline in parentheses, as in '\(parameter.label ?? parameter.name): (timer 1)'")
      }
      return .sequence
    case _ where expr.mentionsArgument:
      return deferred(expr, parameter, signature, &typing)
    case .name:
      guard case .name(let name) = expr.kind else { return mismatch("a name") }
      return .name(name)
    case .typeName:
      guard case .name(let name) = expr.kind, let type = ValueType(name: name) else {
        return mismatch("a type: Int, Double, String or Bool, or one of them optional (String?)")
      }
      return .type(type)
    case .duration, .durationOrZero:
      switch Self.duration(expr, zero: parameter.kind == .durationOrZero, source: source) {
      case .success(let duration): return .duration(duration)
      case .failure(let expected): return mismatch(expected.text)
      }
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
      case (.count, .int(let count)) where count >= 0, (.positiveCount, .int(let count)) where count >= 1:
        return .value(value, type)
      default:
        return mismatch(expectedText(parameter.kind))
      }
    }
  }

  /// An argument mentioning `$0`: in the body of `flatMap { … }`, checked now with `$0`'s type and
  /// worked out per element; anywhere else, an error.
  private func deferred(
    _ expr: Expr, _ parameter: Parameter, _ signature: OperatorSignature, _ typing: inout StageTyping
  ) -> CheckedArgument? {
    func mismatch(_ expected: String) -> CheckedArgument? {
      let name = parameter.shownName
      let written = source.text(of: expr.range)
      typing.diagnostics.append(
        SemaMessages.wrongArgument(
          signature.name, "\(name) must be \(expected), but '\(written)' is \(typedText)", expr.range,
          usage: signature.usage))
      return nil
    }
    var typedText = "not a value"
    guard let elementArguments else {
      typing.diagnostics.append(
        SemaMessages.elementOutsideBody(expr.range, operators: environment.operators.pipelineClosures))
      return nil
    }
    var checker = ExpressionChecker(argumentTypes: elementArguments)
    guard let typed = checker.check(expr) else {
      typing.diagnostics.append(contentsOf: checker.diagnostics)
      return nil
    }
    let type = typed.type
    typedText = "'\(type)'"
    switch parameter.kind {
    case .int, .count, .positiveCount:
      guard type == .int else { return mismatch("an integer") }
    case .number, .duration, .durationOrZero:
      guard type == .int || type == .double else {
        return mismatch(parameter.kind == .number ? "a number" : "a number of seconds")
      }
    case .string:
      guard type == .string else { return mismatch("a string") }
    case .bool:
      guard type == .bool else { return mismatch("true or false") }
    case .value:
      break
    case .name, .typeName, .closure, .pipeline, .sequence:
      return mismatch("written out, not worked out from '$0'")
    }
    return .deferred(typed)
  }

  /// Repeated arguments (`from $0 ($0 * 10)`) where some mention `$0`: all are checked as
  /// expressions, and their types joined.
  private func deferredValues(
    _ arguments: [Argument], _ elementArguments: [ValueType], _ signature: OperatorSignature,
    _ typing: inout StageTyping
  ) -> CheckedArgument? {
    var checker = ExpressionChecker(argumentTypes: elementArguments)
    var typed: [TypedExpr] = []
    var type = ValueType.never
    for argument in arguments {
      guard let expr = checker.check(argument.value) else { continue }
      guard let joined = ValueType.join(type, expr.type) else {
        checker.diagnostics.append(SemaMessages.mixedArray(type, expr.type, argument.range))
        continue
      }
      type = joined
      typed.append(expr)
    }
    typing.diagnostics.append(contentsOf: checker.diagnostics)
    guard checker.diagnostics.isEmpty else { return nil }
    let converted = typed.map { expr in
      type == .double && expr.type == .int ? TypedExpr(.toDouble(expr), .double, expr.range) : expr
    }
    return .deferredValues(converted, type)
  }

  /// "ARG must be EXPECTED, not FOUND", at the argument.
  private func mismatch(
    _ expr: Expr, _ parameter: Parameter, _ signature: OperatorSignature, expected: String
  ) -> Diagnostic {
    let name = parameter.shownName
    return SemaMessages.wrongArgument(
      signature.name, "\(name) must be \(expected), not \(describe(expr))", expr.range, usage: signature.usage)
  }

  func expectedText(_ kind: ParameterKind) -> String {
    switch kind {
    case .int: "an integer"
    case .count: "an integer, 0 or more"
    case .positiveCount: "an integer, 1 or more"
    case .number: "a number"
    case .string: "a string"
    case .bool: "true or false"
    case .value: "a constant value"
    default: "a value"
    }
  }

  func describe(_ expr: Expr) -> String {
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

  /// What a duration argument must be, when it is not.
  struct DurationExpected: Error {
    let text: String
  }

  /// A duration argument (`1.5`, `250ms`): more than zero (or, with `zero`, 0 or more), at most
  /// `Duration.maximumSeconds`.
  static func duration(_ expr: Expr, zero: Bool, source: SourceFile) -> Result<Duration, DurationExpected> {
    let duration: Duration?
    switch expr.kind {
    case .duration(let value): duration = value
    case .integer(let value): duration = Duration.fromSeconds(Double(value))
    case .float(let value): duration = Duration.fromSeconds(value)
    default: return .failure(DurationExpected(text: "a duration such as 1.5s or 250ms"))
    }
    guard let duration, duration <= .seconds(Duration.maximumSeconds) else {
      return .failure(DurationExpected(text: "at most 1000000000s (about 31 years)"))
    }
    if zero { return duration >= .zero ? .success(duration) : .failure(DurationExpected(text: "0 or more")) }
    if duration > .zero { return .success(duration) }
    // Written as more than zero, but less than the clocks' resolution.
    let text = source.text(of: expr.range)
    let tiny = !text.hasPrefix("-") && text.contains { "123456789".contains($0) }
    return .failure(DurationExpected(text: tiny ? "at least 1ns" : "more than zero"))
  }
}
