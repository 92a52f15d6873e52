import PipeSyntax

/// What is wrong with an argument worked out for one element (`take $0` with $0 = -1).
public struct ElementArgumentError: Error, Sendable {
  /// The stage as written.
  public let stage: String
  public let message: String
}

/// The body of `flatMap { … }` for one element: the arguments that mention `$0` are worked out
/// and then checked as the checker checks constants, so the builders get what they always get.
extension CheckedPipeline {
  /// Whether some stage (or input of one) has an argument worked out per element.
  public var hasDeferredArguments: Bool {
    stages.contains { stage in
      stage.arguments.values.contains(where: \.isDeferred) || stage.inputs.contains(where: \.hasDeferredArguments)
    }
  }

  /// The pipeline with its deferred arguments replaced by their values for one element; a nested
  /// `flatMap`'s body keeps its own, which belong to its elements. Throws what `evaluate` throws,
  /// or `ElementArgumentError` when a value is not one the stage takes.
  public func resolved(evaluate: (TypedExpr) throws -> Value) throws -> CheckedPipeline {
    guard hasDeferredArguments else { return self }
    let stages = try self.stages.map { try $0.resolved(evaluate: evaluate) }
    return CheckedPipeline(stages: stages, text: text)
  }
}

extension CheckedArgument {
  var isDeferred: Bool {
    switch self {
    case .deferred, .deferredValues: true
    default: false
    }
  }
}

extension CheckedStage {
  fileprivate func resolved(evaluate: (TypedExpr) throws -> Value) throws -> CheckedStage {
    let inputs = try self.inputs.map { try $0.resolved(evaluate: evaluate) }
    guard let kind else { return with(text: text, inputs: inputs) }
    var arguments = self.arguments
    if arguments.values.contains(where: \.isDeferred) {
      let signature = kind.signature
      let name = kind.name
      for parameter in signature.parameters {
        switch arguments[parameter.name] {
        case .deferred(let expr):
          arguments[parameter.name] = try constant(try evaluate(expr), expr.type, parameter)
        case .deferredValues(let exprs, let type):
          arguments[parameter.name] = .values(try exprs.map { convert(try evaluate($0), to: type) }, type)
        default:
          continue
        }
      }
      // The checks the typing rule makes on constants (`chunks 0`, `range 1 5 by: 0`), now.
      var typing = StageTyping(
        name: name, input: inputType ?? .never, inputs: inputs.map(\.elementType), stageRange: range,
        usage: signature.usage, syntax: [:])
      typing.checked = arguments
      _ = signature.typing(&typing)
      if let problem = typing.diagnostics.first {
        throw ElementArgumentError(stage: text, message: typing.unnamed[problem] ?? problem.message)
      }
      arguments = typing.checked
    }
    return try CheckedStage(
      kind: kind, role: role, text: text, range: range, arguments: arguments, inputs: inputs, inputType: inputType,
      outputType: outputType, body: body)
  }

  /// A worked-out value as the constant argument the parameter takes.
  private func constant(_ value: Value, _ type: ValueType, _ parameter: Parameter) throws -> CheckedArgument {
    let name = parameter.shownName
    switch (parameter.kind, value) {
    case (.count, .int(let count)) where count < 0:
      throw ElementArgumentError(stage: text, message: "\(name) must be 0 or more, not \(count)")
    case (.positiveCount, .int(let count)) where count < 1:
      throw ElementArgumentError(stage: text, message: "\(name) must be 1 or more, not \(count)")
    case (.duration, _), (.durationOrZero, _):
      let seconds: Double
      switch value {
      case .int(let int): seconds = Double(int)
      case .double(let double): seconds = double
      default:
        throw ElementArgumentError(stage: text, message: "\(name) must be a number of seconds, not \(value.printed)")
      }
      guard let duration = Duration.fromSeconds(seconds) else {
        throw ElementArgumentError(
          stage: text, message: "\(name) must be at most 1000000000s (about 31 years), not \(value.printed)")
      }
      let zero = parameter.kind == .durationOrZero
      if seconds > 0 && duration == .zero && !zero {
        // More than zero, but less than the clocks' resolution: the rule it broke is that one.
        throw ElementArgumentError(stage: text, message: "\(name) must be at least 1ns, not \(value.printed)")
      }
      guard duration > .zero || (zero && duration == .zero) else {
        throw ElementArgumentError(
          stage: text, message: "\(name) must be \(zero ? "0 or more" : "more than zero"), not \(value.printed)")
      }
      return .duration(duration)
    default:
      return .value(value, type)
    }
  }
}
