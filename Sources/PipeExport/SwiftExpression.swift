import PipeSema

/// Swift text for pipesh's values, types and closure expressions.
///
/// Int arithmetic becomes the checked helpers of the program (`try $0.adding(1)`), because Swift's
/// `+` stops the program on overflow where pipesh reports an error of the job; everything else is
/// the Swift a person would write (`$0 * 2.5`, `"\($0)"`, `String($0)`, `$0.0`).
struct SwiftExpression {
  /// The names `$0` and `$1` stand for: `$0`, `$1` in a closure, `element` in a `flatMap` body.
  var arguments: [String] = ["$0", "$1"]
  /// The checked helpers the text uses, for the program to define.
  var support: Set<Support> = []
  /// Whether the text calls a helper that can throw.
  var throwing = false
  /// Whether Int arithmetic is Swift's own (`$0 * 2`, which stops the program on overflow) rather
  /// than the checked helpers: what `swift PIPELINE` writes unless asked for `checked: true`.
  var plain = false

  /// Swift's operator precedence, lowest first, for putting parentheses where they are needed.
  enum Level: Int, Comparable {
    case ternary, or, and, comparison, additive, multiplicative, prefix, postfix
    static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }

  mutating func text(_ expr: TypedExpr) -> String { render(expr).text }

  private mutating func at(_ level: Level, _ expr: TypedExpr) -> String {
    let (text, own) = render(expr)
    return own < level ? "(\(text))" : text
  }

  private mutating func render(_ expr: TypedExpr) -> (text: String, level: Level) {
    switch expr.kind {
    case .constant(let value):
      let text = Self.literal(value, expr.type)
      return (text, text.hasPrefix("-") ? .prefix : .postfix)
    case .argument(let index, let name):
      return (name ?? arguments[min(index, arguments.count - 1)], .postfix)
    case .negate(let operand):
      if operand.type == .int && !plain { return checked(.negated, at(.postfix, operand), "negated()") }
      return ("-" + at(.prefix, operand), .prefix)
    case .not(let operand):
      return ("!" + at(.prefix, operand), .prefix)
    case .arithmetic(let op, let left, let right):
      if expr.type == .int && !plain {
        let receiver = at(.postfix, left)
        let argument = text(right)
        switch op {
        case .add: return checked(.adding, receiver, "adding(\(argument))")
        case .subtract: return checked(.subtracting, receiver, "subtracting(\(argument))")
        case .multiply: return checked(.multiplied, receiver, "multiplied(by: \(argument))")
        case .divide: return checked(.divided, receiver, "divided(by: \(argument))")
        case .remainder: return checked(.remainder, receiver, "remainder(dividingBy: \(argument))")
        }
      }
      if op == .remainder && expr.type != .int {
        return ("\(at(.postfix, left)).truncatingRemainder(dividingBy: \(text(right)))", .postfix)
      }
      let level: Level = op == .add || op == .subtract ? .additive : .multiplicative
      return (at(level, left) + " \(op.rawValue) " + at(Level(rawValue: level.rawValue + 1) ?? level, right), level)
    case .concatenate(let left, let right):
      return (at(.additive, left) + " + " + at(.multiplicative, right), .additive)
    case .compare(let op, let left, let right):
      return (at(.additive, left) + " \(op.rawValue) " + at(.additive, right), .comparison)
    case .and(let left, let right):
      return (at(.and, left) + " && " + at(.comparison, right), .and)
    case .or(let left, let right):
      return (at(.or, left) + " || " + at(.and, right), .or)
    case .conditional(let condition, let yes, let no):
      return (at(.or, condition) + " ? " + at(.or, yes) + " : " + at(.ternary, no), .ternary)
    case .tupleMember(let base, let index):
      return ("\(at(.postfix, base)).\(index)", .postfix)
    case .element(let base, let index):
      if plain { return ("\(at(.postfix, base))[\(text(index))]", .postfix) }
      return checked(.element, at(.postfix, base), "element(at: \(text(index)))")
    case .count(let base):
      return ("\(at(.postfix, base)).count", .postfix)
    case .isEmpty(let base):
      return ("\(at(.postfix, base)).isEmpty", .postfix)
    case .joined(let base, let separator):
      let strings =
        base.type == .array(.string) ? at(.postfix, base) : "\(at(.postfix, base)).map { \(Self.shown("$0", .string)) }"
      guard let separator else { return ("\(strings).joined()", .postfix) }
      return ("\(strings).joined(separator: \(text(separator)))", .postfix)
    case .function(let function, let arguments):
      return call(function, arguments, expr.type)
    case .array(let elements):
      return ("[" + elements.map { text($0) }.joined(separator: ", ") + "]", .postfix)
    case .tuple(let members):
      return ("(" + members.map { text($0) }.joined(separator: ", ") + ")", .postfix)
    case .interpolation(let pieces):
      var out = "\""
      for piece in pieces {
        if case .constant(.string(let text)) = piece.kind {
          out += Self.escaped(text)
        } else {
          let inner = text(piece)
          out += "\\(" + (Self.hasOptional(piece.type) ? Self.shown(inner, piece.type) : inner) + ")"
        }
      }
      return (out + "\"", .postfix)
    case .toDouble(let operand):
      return ("Double(\(text(operand)))", .postfix)
    }
  }

  /// A call of a checked helper: `try` goes in front of the whole closure body.
  private mutating func checked(_ helper: Support, _ receiver: String, _ call: String) -> (String, Level) {
    support.insert(helper)
    throwing = true
    return ("\(receiver).\(call)", .postfix)
  }

  private mutating func call(
    _ function: BuiltinFunction, _ arguments: [TypedExpr], _ type: ValueType
  ) -> (
    String, Level
  ) {
    let first = arguments[0]
    switch function {
    case .str:
      switch first.type {
      case .string: return (text(first), .postfix)
      case .int, .double, .bool: return ("String(\(text(first)))", .postfix)
      default: return (Self.shown(text(first), first.type), .postfix)
      }
    case .int:
      switch first.type {
      case .int: return (text(first), .postfix)
      case .bool: return ("(\(text(first)) ? 1 : 0)", .postfix)
      case .double:
        return plain ? ("Int(\(text(first)))", .postfix) : checked(.exactInt, at(.postfix, first), "exactInt()")
      default: return ("Int(\(text(first)))", .postfix)
      }
    case .double:
      if first.type == .double { return (text(first), .postfix) }
      return ("Double(\(text(first)))", .postfix)
    case .abs:
      if first.type == .int && !plain { return checked(.absolute, at(.postfix, first), "absolute()") }
      return ("abs(\(text(first)))", .postfix)
    case .min, .max:
      return ("\(function.rawValue)(\(text(first)), \(text(arguments[1])))", .postfix)
    }
  }

  /// A String expression with the text `print` shows for `value` (of `type`): Swift's, except
  /// that an optional shows its value or `nil`. Only types holding optionals need more than
  /// `String(describing:)`.
  static func shown(_ value: String, _ type: ValueType) -> String {
    guard Self.hasOptional(type) else { return type == .string ? value : "String(describing: \(value))" }
    return described(value, type, quoted: false)
  }

  private static func described(_ value: String, _ type: ValueType, quoted: Bool) -> String {
    switch type {
    case .optional(let wrapped):
      return "\(value).map { \(described("$0", wrapped, quoted: quoted)) } ?? \"nil\""
    case .tuple(let members):
      let parts = members.indices.map { "\\(\(described("\(value).\($0)", members[$0], quoted: true)))" }
      return "\"(" + parts.joined(separator: ", ") + ")\""
    case .array(let element):
      return "\"[\" + \(value).map { \(described("$0", element, quoted: true)) }.joined(separator: \", \") + \"]\""
    case .string:
      return quoted ? "String(reflecting: \(value))" : value
    default:
      return "String(describing: \(value))"
    }
  }

  static func hasOptional(_ type: ValueType) -> Bool {
    switch type {
    case .optional: true
    case .tuple(let members): members.contains(where: hasOptional)
    case .array(let element): hasOptional(element)
    default: false
    }
  }

  /// The Swift name of a pipesh type; `Never` (of `empty`, `never`, `fail`) is written `Int`.
  static func typeName(_ type: ValueType) -> String {
    switch type {
    case .never: "Int"
    case .tuple(let members): "(" + members.map(typeName).joined(separator: ", ") + ")"
    case .array(let element): "[\(typeName(element))]"
    case .optional(let wrapped): "\(typeName(wrapped))?"
    default: type.description
    }
  }

  /// A Swift literal of `value`, read as `type`.
  static func literal(_ value: Value, _ type: ValueType) -> String {
    switch (value, type) {
    case (.none, _): return "nil"
    case (let value, .optional(let wrapped)): return literal(value, wrapped)
    case (.int(let number), .double): return "\(number).0"
    case (.int(let number), _): return grouped(number)
    case (.double(let number), _):
      if number.isNaN { return "Double.nan" }
      if number.isInfinite { return number < 0 ? "-Double.infinity" : "Double.infinity" }
      return number.description
    case (.string(let text), _): return "\"" + escaped(text) + "\""
    case (.bool(let flag), _): return flag ? "true" : "false"
    case (.tuple(let members), .tuple(let types)) where members.count == types.count:
      return "(" + zip(members, types).map { literal($0, $1) }.joined(separator: ", ") + ")"
    case (.array(let elements), .array(let element)):
      return "[" + elements.map { literal($0, element) }.joined(separator: ", ") + "]"
    case (.tuple(let members), _), (.array(let members), _):
      return "[" + members.map { literal($0, .never) }.joined(separator: ", ") + "]"
    }
  }

  /// `1_000_000`: long decimal literals in groups of three digits, as swift-format wants them.
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    guard digits.count >= 7 else { return String(number) }
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return (number < 0 ? "-" : "") + groups.joined(separator: "_")
  }

  /// Text for inside a Swift string literal.
  static func escaped(_ text: String) -> String {
    text.escapingQuotesAndControls { "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" }
  }

  /// A string literal of `text`: a raw one (`#"…"#`) where that reads better.
  static func stringLiteral(_ text: String) -> String {
    let plain = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    if plain, text.contains("\"") || text.contains("\\"), !text.contains("\"#") {
      return "#\"" + text + "\"#"
    }
    return "\"" + escaped(text) + "\""
  }
}
