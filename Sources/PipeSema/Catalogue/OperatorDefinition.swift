/// The catalogue of operators: one definition per source, combinator, operator and sink, each in
/// its own file in `Definitions/`. A definition declares how the operator is written and typed
/// (its signature) and how its checked arguments become the typed `Operation` every backend
/// switches over, with every default applied here, once.
public enum Catalogue {}

/// What the catalogue knows of one operator.
public protocol OperatorDefinition {
  /// How it is written, what it takes, how it types, and what `help` shows.
  static var signature: OperatorSignature { get }
  /// The operation of a checked stage: its arguments, typed, in the given form.
  static func operation<Form: ArgumentForm>(
    _ arguments: ArgumentReader<Form>
  ) throws(MissingArgument)
    -> Operation<Form>
}

/// An argument a definition needs that the checked stage lacks (or has in another form): after
/// a successful check only an argument still worked out per element, or a bug of pipesh's.
public struct MissingArgument: Error, Sendable {
  public let parameter: String
}

/// A checked stage's arguments, read by parameter in one form.
public struct ArgumentReader<Form: ArgumentForm> {
  let arguments: [String: CheckedArgument]
  /// The `{ PIPELINE }` of `flatMap`, checked.
  let body: CheckedPipeline?
  /// The stage's inputs: an operator's `( PIPELINE )` arguments, checked, in the order of its
  /// parameters.
  let inputs: [CheckedPipeline]

  init(_ arguments: [String: CheckedArgument], body: CheckedPipeline?, inputs: [CheckedPipeline] = []) {
    self.arguments = arguments
    self.body = body
    self.inputs = inputs
  }

  private func read<T>(
    _ parameter: Parameter, _ read: (CheckedArgument) -> T?, default fallback: CheckedArgument? = nil
  ) throws(MissingArgument) -> T {
    guard let argument = arguments[parameter.name] ?? fallback, let value = read(argument) else {
      throw MissingArgument(parameter: parameter.name)
    }
    return value
  }

  private func optional<T>(_ parameter: Parameter, _ read: (CheckedArgument) -> T?) throws(MissingArgument) -> T? {
    guard let argument = arguments[parameter.name] else { return nil }
    guard let value = read(argument) else { throw MissingArgument(parameter: parameter.name) }
    return value
  }

  public func integer(_ parameter: Parameter) throws(MissingArgument) -> Form.Integer {
    try read(parameter, Form.integer)
  }

  public func optionalInteger(_ parameter: Parameter) throws(MissingArgument) -> Form.Integer? {
    try optional(parameter, Form.integer)
  }

  public func interval(
    _ parameter: Parameter, default fallback: Duration? = nil
  ) throws(MissingArgument)
    -> Form.Interval
  {
    try read(parameter, Form.interval, default: fallback.map { .duration($0) })
  }

  public func optionalInterval(_ parameter: Parameter) throws(MissingArgument) -> Form.Interval? {
    try optional(parameter, Form.interval)
  }

  public func constant(
    _ parameter: Parameter, default fallback: (Value, ValueType)? = nil
  )
    throws(MissingArgument) -> Form.Constant
  {
    try read(parameter, Form.constant, default: fallback.map { .value($0.0, $0.1) })
  }

  public func optionalConstant(_ parameter: Parameter) throws(MissingArgument) -> Form.Constant? {
    try optional(parameter, Form.constant)
  }

  public func constants(_ parameter: Parameter) throws(MissingArgument) -> Form.Constants {
    try read(parameter, Form.constants, default: .values([], .never))
  }

  public func text(_ parameter: Parameter) throws(MissingArgument) -> Form.Text {
    try read(parameter, Form.text)
  }

  public func optionalText(_ parameter: Parameter) throws(MissingArgument) -> Form.Text? {
    try optional(parameter, Form.text)
  }

  public func flag(_ parameter: Parameter, default fallback: Bool) throws(MissingArgument) -> Form.Flag {
    try read(parameter, Form.flag, default: .value(.bool(fallback), .bool))
  }

  public func diagram(_ parameter: Parameter) throws(MissingArgument) -> Form.Diagram {
    try read(parameter, Form.diagram)
  }

  public func size(_ parameter: Parameter) throws(MissingArgument) -> Form.Size {
    try read(parameter, Form.size)
  }

  /// A closure: checked once, the same in every form.
  public func closure(_ parameter: Parameter) throws(MissingArgument) -> TypedExpr {
    guard case .closure(let expr) = arguments[parameter.name] else { throw MissingArgument(parameter: parameter.name) }
    return expr
  }

  /// A closure that may be left out, as the other form of an operator (`chunked INTERVAL`) has none.
  public func optionalClosure(_ parameter: Parameter) -> TypedExpr? {
    guard case .closure(let expr) = arguments[parameter.name] else { return nil }
    return expr
  }

  /// The pipeline `flatMap { … }` runs per element.
  public func body(_ parameter: Parameter) throws(MissingArgument) -> CheckedPipeline {
    guard let body else { throw MissingArgument(parameter: parameter.name) }
    return body
  }

  /// A `( PIPELINE )` argument that may be left out (`chunked by: (timer 1)`): the stage's one input.
  public func optionalSequence(_ parameter: Parameter) throws(MissingArgument) -> CheckedPipeline? {
    guard case .sequence = arguments[parameter.name] else { return nil }
    guard inputs.count == 1, let sequence = inputs.first else { throw MissingArgument(parameter: parameter.name) }
    return sequence
  }

  /// A constant that is never worked out per element (`subject NAME initial: V`), as a value.
  public func value(_ parameter: Parameter) throws(MissingArgument) -> Value {
    guard case .value(let value, _) = arguments[parameter.name] else {
      throw MissingArgument(parameter: parameter.name)
    }
    return value
  }

  /// A stream's buffering policy: the word (unbounded when not given) and its count.
  public func buffering(_ policy: Parameter, count: Parameter) throws(MissingArgument) -> StreamBuffering {
    guard case .name(let word) = arguments[policy.name] else { return .unbounded }
    let limit: Int? = if case .value(.int(let limit), _) = arguments[count.name] { limit } else { nil }
    switch (word, limit) {
    case ("unbounded", nil): return .unbounded
    case ("newest", let limit?): return .newest(limit)
    case ("oldest", let limit?): return .oldest(limit)
    default: throw MissingArgument(parameter: count.name)
    }
  }

  /// A bare word (`channel NAME`): never worked out per element.
  public func word(_ parameter: Parameter) throws(MissingArgument) -> String {
    guard case .name(let word) = arguments[parameter.name] else { throw MissingArgument(parameter: parameter.name) }
    return word
  }

  /// A bare word naming one of a closed set (`policy: newest`), or the default when not given.
  public func word<Choice: RawRepresentable<String>>(
    _ parameter: Parameter, default fallback: Choice
  )
    throws(MissingArgument) -> Choice
  {
    guard let argument = arguments[parameter.name] else { return fallback }
    guard case .name(let word) = argument, let choice = Choice(rawValue: word) else {
      throw MissingArgument(parameter: parameter.name)
    }
    return choice
  }
}
