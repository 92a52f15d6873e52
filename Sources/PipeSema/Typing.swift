/// Typing rules several operators share.
public enum Typing {
  /// The elements pass through: the output type is the input type.
  public static let same: TypingRule = { typing in typing.input }

  /// A combinator whose inputs must have one element type (`merge`, `chain`).
  public static let unifiedInputs: TypingRule = { typing in
    var type = ValueType.never
    for input in typing.inputs {
      guard let joined = ValueType.join(type, input) else {
        typing.error("inputs have different element types '\(type)' and '\(input)'")
        return nil
      }
      type = joined
    }
    return type
  }

  /// A combinator that emits tuples of its inputs' elements (`zip`, `combineLatest`).
  public static let tupleOfInputs: TypingRule = { typing in .tuple(typing.inputs) }

  /// An operator whose closure argument `parameter` is a Bool of the element; the elements pass.
  public static func predicate(_ parameter: Parameter) -> TypingRule {
    { typing in
      guard let closure = typing.closure(parameter, [typing.input]) else { return nil }
      guard closure.type == .bool else {
        typing.report(SemaMessages.notBool("the closure of '\(typing.name)'", closure.type, closure.range))
        return nil
      }
      return typing.input
    }
  }

  /// `reductions` and `reduce`: the result type is INIT's (or the element's), widened to Double
  /// where the closure yields a Double.
  public static func accumulate(initial: Parameter, next: Parameter) -> TypingRule {
    { typing in
      var resultType = typing.type(of: initial) ?? typing.input
      if case .optional(.never) = resultType {
        typing.error("give the initial value a type: nil alone has none", at: initial)
        return nil
      }
      for _ in 0..<2 {
        guard let closure = typing.closure(next, [resultType, typing.input]) else { return nil }
        if closure.type == resultType { return resultType }
        guard let joined = ValueType.join(resultType, closure.type), joined != resultType,
          typing.has(initial) || joined == typing.input
        else {
          let message = "the closure gives '\(closure.type)' but the result so far ($0) is '\(resultType)'"
          typing.report(SemaMessages.elementMismatch(typing.name, message, closure.range), unnamed: message)
          return nil
        }
        if let (value, _) = typing.value(initial) {
          typing.set(initial, .value(convert(value, to: joined), joined))
        }
        resultType = joined
      }
      return resultType
    }
  }

  /// `flatMap { PIPELINE }`: what the body pipeline emits.
  /// A stage that passes its input on and runs a pipeline per element beside it (`spawn`).
  public static let passesOnBesideBody: TypingRule = { typing in
    guard typing.body != nil else {
      typing.error("give the pipeline to start for each element in braces, as in { timer 1 | take $0 | tap \"left\" }")
      return nil
    }
    return typing.input
  }

  public static let body: TypingRule = { typing in
    guard let body = typing.body else {
      typing.error("give the pipeline to run for each element in braces, as in { from $0 $0 }")
      return nil
    }
    return body
  }

  /// A sink of one element chosen by order (`min`, `max`): nil when there was none.
  public static let comparableOptional: TypingRule = { typing in
    guard typing.input.isComparable else {
      typing.error("its input must be Int, Double or String, but it is '\(typing.input)'")
      return nil
    }
    return .optional(typing.input)
  }
}
