/// A value flowing through a pipeline. It lives here rather than in PipeRuntime because the checker
/// folds constant arguments (`take 3`, `from 1 2 3`) into values before anything runs.
/// An optional holding a value is that value itself; `none` is `nil`.
public enum Value: Sendable, Hashable {
  case int(Int)
  case double(Double)
  case string(String)
  case bool(Bool)
  case tuple([Value])
  case array([Value])
  case none

  /// The text `print` shows: what Swift's `print(_:)` shows for the matching Swift value, with an
  /// optional shown as its value or `nil`.
  public var printed: String {
    if case .string(let text) = self { return text }
    return debugText
  }

  /// The text of the value inside a tuple or an array: strings are quoted, as Swift does.
  public var debugText: String {
    switch self {
    case .int(let value): String(value)
    case .double(let value): value.description
    case .string(let value): Self.quoted(value)
    case .bool(let value): value ? "true" : "false"
    case .tuple(let members): "(" + members.map(\.debugText).joined(separator: ", ") + ")"
    case .array(let elements): "[" + elements.map(\.debugText).joined(separator: ", ") + "]"
    case .none: "nil"
    }
  }

  static func quoted(_ text: String) -> String {
    "\"" + text.escapingQuotesAndControls { $0 == "\0" ? "\\0" : String($0) } + "\""
  }

  /// The value as one of `type`: an Int where a Double is wanted (`merge(from 1, from 2.5)` joins
  /// Int into Double) becomes that Double, as Swift's would.
  public func converted(to type: ValueType) -> Value {
    switch (self, type) {
    case (.int(let number), .double): return .double(Double(number))
    case (let value, .optional(let wrapped)): return value.converted(to: wrapped)
    case (.array(let elements), .array(let element)): return .array(elements.map { $0.converted(to: element) })
    case (.tuple(let members), .tuple(let types)) where members.count == types.count:
      return .tuple(zip(members, types).map { $0.converted(to: $1) })
    default: return self
    }
  }
}

extension Value {
  /// Whether it is `true`: what a predicate's result is asked (`filter`, `takeWhile`), with no
  /// `Value` made to compare it with.
  @inlinable
  public var isTrue: Bool {
    if case .bool(true) = self { return true }
    return false
  }
}
