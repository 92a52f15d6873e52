import PipeSyntax

/// A checked expression: every node knows its type, so the runtime can compile it to a closure
/// without looking at types again.
public struct TypedExpr: Sendable, Hashable {
  public indirect enum Kind: Sendable, Hashable {
    case constant(Value)
    /// `$0` or `$1`, or the named parameter that stands for it (`x` in `{ x in … }`)
    case argument(Int, name: String?)
    case negate(TypedExpr)
    case not(TypedExpr)
    case arithmetic(ArithmeticOperator, TypedExpr, TypedExpr)
    case concatenate(TypedExpr, TypedExpr)
    case compare(ComparisonOperator, TypedExpr, TypedExpr)
    case and(TypedExpr, TypedExpr)
    case or(TypedExpr, TypedExpr)
    case conditional(TypedExpr, TypedExpr, TypedExpr)
    case tupleMember(TypedExpr, Int)
    case element(TypedExpr, TypedExpr)
    case count(TypedExpr)
    case isEmpty(TypedExpr)
    case joined(TypedExpr, separator: TypedExpr?)
    case function(BuiltinFunction, [TypedExpr])
    case array([TypedExpr])
    case tuple([TypedExpr])
    case interpolation([TypedExpr])
    /// An Int promoted to Double where the other side is a Double.
    case toDouble(TypedExpr)
  }

  public let kind: Kind
  public let type: ValueType
  public let range: SourceRange

  public init(_ kind: Kind, _ type: ValueType, _ range: SourceRange) {
    self.kind = kind
    self.type = type
    self.range = range
  }
}

/// `+ - * / %` on numbers.
public enum ArithmeticOperator: String, Sendable, Hashable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case remainder = "%"
}

/// `== != < > <= >=`
public enum ComparisonOperator: String, Sendable, Hashable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case greater = ">"
  case lessOrEqual = "<="
  case greaterOrEqual = ">="
}

/// The functions closures may call.
public enum BuiltinFunction: String, Sendable, Hashable, CaseIterable {
  /// `str(x)`: the text `print` shows for x.
  case str
  /// `int(x)`: an Int from a Double (truncating), an Int? from a String.
  case int
  /// `double(x)`: a Double from an Int, a Double? from a String.
  case double
  case abs
  case min
  case max
}
