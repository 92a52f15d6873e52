/// The form an operation's arguments take. A stage in the body of `flatMap { … }` may have
/// arguments worked out from each element (`take $0`): as written, such an argument is an
/// expression; once worked out, a value. `Operation<Resolved>` holds values only, and is what the
/// runtime and `compare` build from; `Operation<Written>` holds the checked arguments as written,
/// and is what the Swift export writes out.
public protocol ArgumentForm: Sendable {
  /// An integer (`take N`, `random A B`).
  associatedtype Integer: Sendable
  /// A duration (`timer 1`, `debounce 250ms`).
  associatedtype Interval: Sendable
  /// A constant of any type (`interspersed V`, `range A B`).
  associatedtype Constant: Sendable
  /// Repeated constants (`from V…`).
  associatedtype Constants: Sendable
  /// A string (`lines "FILE"`).
  associatedtype Text: Sendable
  /// A Bool (`print time: true`).
  associatedtype Flag: Sendable
  /// A parsed marble diagram (`marble "ab|"`).
  associatedtype Diagram: Sendable
  /// A buffer's size: a number of elements, or unbounded.
  associatedtype Size: Sendable

  static func integer(_ argument: CheckedArgument) -> Integer?
  static func interval(_ argument: CheckedArgument) -> Interval?
  static func constant(_ argument: CheckedArgument) -> Constant?
  static func constants(_ argument: CheckedArgument) -> Constants?
  static func text(_ argument: CheckedArgument) -> Text?
  static func flag(_ argument: CheckedArgument) -> Flag?
  /// Whether a flag is known to be false (an expression of `$0`, as written, is not).
  static func isFalse(_ flag: Flag) -> Bool
  static func diagram(_ argument: CheckedArgument) -> Diagram?
  static func size(_ argument: CheckedArgument) -> Size?
}

/// Every argument known: what the runtime and `compare` build nodes from.
public enum Resolved: ArgumentForm {
  public static func integer(_ argument: CheckedArgument) -> Int? {
    if case .value(.int(let value), _) = argument { return value }
    return nil
  }

  public static func interval(_ argument: CheckedArgument) -> Duration? {
    if case .duration(let duration) = argument { return duration }
    return nil
  }

  public static func constant(_ argument: CheckedArgument) -> Value? {
    if case .value(let value, _) = argument { return value }
    return nil
  }

  public static func constants(_ argument: CheckedArgument) -> [Value]? {
    if case .values(let values, _) = argument { return values }
    return nil
  }

  public static func text(_ argument: CheckedArgument) -> String? {
    if case .value(.string(let value), _) = argument { return value }
    return nil
  }

  public static func flag(_ argument: CheckedArgument) -> Bool? {
    if case .value(.bool(let value), _) = argument { return value }
    return nil
  }

  public static func isFalse(_ flag: Bool) -> Bool { !flag }

  public static func diagram(_ argument: CheckedArgument) -> MarbleDiagram? {
    if case .marble(let diagram) = argument { return diagram }
    return nil
  }

  public static func size(_ argument: CheckedArgument) -> BufferSize? {
    switch argument {
    case .value(.int(let count), _): .count(count)
    case .value(.string(BufferSize.unboundedWord), _): .unbounded
    default: nil
    }
  }
}

/// The checked arguments as written: constants, or expressions of `$0` worked out per element.
public enum Written: ArgumentForm {
  public static func integer(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func interval(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func constant(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func constants(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func text(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func flag(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func isFalse(_ flag: CheckedArgument) -> Bool {
    if case .value(.bool(false), _) = flag { return true }
    return false
  }
  public static func diagram(_ argument: CheckedArgument) -> CheckedArgument? { argument }
  public static func size(_ argument: CheckedArgument) -> CheckedArgument? { argument }
}

/// How many elements a `buffer` holds.
public enum BufferSize: Sendable, Hashable {
  case count(Int)
  case unbounded

  /// The word that asks for no limit (`buffer unbounded`).
  public static let unboundedWord = "unbounded"
}

/// What a full `buffer` does.
public enum BufferPolicy: String, Sendable, CaseIterable {
  /// Waits: the input is not asked for more until there is room (the default).
  case bounded
  /// Keeps the newest elements, dropping the oldest.
  case newest
  /// Keeps the oldest elements, dropping the newest.
  case oldest
}
