/// The static type of a pipeline's elements or of an expression.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
  case int
  case double
  case string
  case bool
  case tuple([ValueType])
  case array(ValueType)
  case optional(ValueType)
  /// The element type of a source that emits nothing (`empty`, `never`, `fail`); it fits any type.
  case never

  /// How deep tuples, arrays and optionals nest: `Int` is 1, `[[Int]]` is 3.
  public var depth: Int {
    switch self {
    case .int, .double, .string, .bool, .never: 1
    case .tuple(let members): 1 + (members.map(\.depth).max() ?? 0)
    case .array(let element): 1 + element.depth
    case .optional(let wrapped): 1 + wrapped.depth
    }
  }

  public var description: String {
    switch self {
    case .int: "Int"
    case .double: "Double"
    case .string: "String"
    case .bool: "Bool"
    case .tuple(let members): "(" + members.map(\.description).joined(separator: ", ") + ")"
    case .array(let element): "[\(element)]"
    case .optional(let wrapped): "\(wrapped)?"
    case .never: "Never"
    }
  }

  /// Whether `<` and friends apply.
  public var isComparable: Bool {
    switch self {
    case .int, .double, .string, .never: true
    default: false
    }
  }

  public var isNumeric: Bool { self == .int || self == .double || self == .never }

  /// The type without one level of optionality.
  public var unwrapped: ValueType {
    if case .optional(let wrapped) = self { return wrapped }
    return self
  }

  public var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }

  /// The type both fit, as Swift's literals and pipesh's promotions allow: Int with Double gives
  /// Double, T with nil gives T?, Never fits anything. Nil when there is none.
  public static func join(_ a: ValueType, _ b: ValueType) -> ValueType? {
    if a == b { return a }
    switch (a, b) {
    case (.never, let other), (let other, .never): return other
    case (.int, .double), (.double, .int): return .double
    case (.optional(let x), .optional(let y)): return join(x, y).map { .optional($0) }
    case (.optional(let x), let y), (let y, .optional(let x)): return join(x, y).map { .optional($0) }
    case (.array(let x), .array(let y)): return join(x, y).map { .array($0) }
    case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count:
      var members: [ValueType] = []
      for (x, y) in zip(xs, ys) {
        guard let member = join(x, y) else { return nil }
        members.append(member)
      }
      return .tuple(members)
    default: return nil
    }
  }

  /// Parses a type name as written in `channel c of: Int` or `of: String?`.
  public init?(name: String) {
    if name.hasSuffix("?") {
      guard let wrapped = ValueType(name: String(name.dropLast())), !name.dropLast().hasSuffix("?") else {
        return nil
      }
      self = .optional(wrapped)
      return
    }
    switch name {
    case "Int": self = .int
    case "Double": self = .double
    case "String": self = .string
    case "Bool": self = .bool
    default: return nil
    }
  }
}
