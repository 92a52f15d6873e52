import PipeSema

/// Closures over Ints: an expression whose values are all `Int` (or `Bool` from comparing Ints) is
/// compiled to closures that take and return plain `Int`s and `Bool`s, with no `Value` boxed on
/// the way and, where a side is `$0` or a constant, no closure called for it. The generic
/// `Evaluator.compileReference` is the reference they are tested against: the same results, and
/// the same errors with the same messages.
struct IntCompiler {
  typealias IntClosure = @Sendable (Int, Int) throws(PipelineError) -> Int
  typealias BoolClosure = @Sendable (Int, Int) throws(PipelineError) -> Bool

  let fail: @Sendable (String) -> PipelineError

  /// One side of an operator: `$0`, `$1`, a constant, or an expression's closure.
  enum Operand: Sendable {
    case argument(Int)
    case constant(Int)
    case closure(IntClosure)

    @inline(__always)
    func value(_ a: Int, _ b: Int) throws(PipelineError) -> Int {
      switch self {
      case .argument(let index): index == 0 ? a : b
      case .constant(let value): value
      case .closure(let closure): try closure(a, b)
      }
    }
  }

  /// An Int expression as an operand; nil for one this compiler does not handle. Every part it
  /// takes is typed Int (or Bool, in `predicate`), so what it compiles reads only Ints.
  func operand(_ expr: TypedExpr) -> Operand? {
    guard expr.type == .int else { return nil }
    switch expr.kind {
    case .constant(.int(let value)): return .constant(value)
    case .argument(let index, _): return .argument(index)
    case .arithmetic(let op, let left, let right):
      guard let left = operand(left), let right = operand(right) else { return nil }
      return .closure(arithmetic(op, left, right))
    case .negate(let operand):
      guard let operand = self.operand(operand) else { return nil }
      let fail = self.fail
      return .closure { a, b throws(PipelineError) in
        let value = try operand.value(a, b)
        let (result, overflow) = Int(0).subtractingReportingOverflow(value)
        if overflow { throw fail("integer overflow in -\(value)") }
        return result
      }
    case .function(.abs, let arguments) where arguments.count == 1:
      guard let operand = self.operand(arguments[0]) else { return nil }
      let fail = self.fail
      return .closure { a, b throws(PipelineError) in
        let value = try operand.value(a, b)
        guard value != .min else { throw fail("integer overflow in abs(\(value))") }
        return Swift.abs(value)
      }
    case .function(let function, let arguments) where (function == .min || function == .max) && arguments.count == 2:
      guard let x = operand(arguments[0]), let y = operand(arguments[1]) else { return nil }
      let wantsMin = function == .min
      return .closure { a, b throws(PipelineError) in
        let (first, second) = (try x.value(a, b), try y.value(a, b))
        return wantsMin == (first <= second) ? first : second
      }
    case .conditional(let condition, let yes, let no):
      guard let condition = predicate(condition), let yes = operand(yes), let no = operand(no) else { return nil }
      return .closure { a, b throws(PipelineError) in
        if try condition(a, b) { return try yes.value(a, b) }
        return try no.value(a, b)
      }
    default:
      return nil
    }
  }

  /// A Bool expression over Ints; nil for one this compiler does not handle.
  func predicate(_ expr: TypedExpr) -> BoolClosure? {
    guard expr.type == .bool else { return nil }
    switch expr.kind {
    case .constant(.bool(let value)):
      return { _, _ in value }
    case .compare(let op, let left, let right):
      guard let left = operand(left), let right = operand(right) else { return nil }
      return comparison(op, left, right)
    case .not(let operand):
      guard let operand = predicate(operand) else { return nil }
      return { a, b throws(PipelineError) in !(try operand(a, b)) }
    case .and(let left, let right):
      guard let left = predicate(left), let right = predicate(right) else { return nil }
      return { a, b throws(PipelineError) in
        guard try left(a, b) else { return false }
        return try right(a, b)
      }
    case .or(let left, let right):
      guard let left = predicate(left), let right = predicate(right) else { return nil }
      return { a, b throws(PipelineError) in
        if try left(a, b) { return true }
        return try right(a, b)
      }
    default:
      return nil
    }
  }

  /// `x OP y` with pipesh's checks: overflow and division by zero fail with its messages. `$0 OP
  /// constant`, the common shape, reads both without a call.
  private func arithmetic(_ op: ArithmeticOperator, _ left: Operand, _ right: Operand) -> IntClosure {
    let fail = self.fail
    if case .argument(0) = left, case .constant(let constant) = right {
      return { a, _ throws(PipelineError) in try Self.apply(op, a, constant, fail) }
    }
    return { a, b throws(PipelineError) in try Self.apply(op, try left.value(a, b), try right.value(a, b), fail) }
  }

  /// pipesh's checked Int arithmetic, the one rule both evaluators use: overflow and division by
  /// zero fail with its messages.
  @inline(__always)
  static func apply(
    _ op: ArithmeticOperator, _ x: Int, _ y: Int, _ fail: @Sendable (String) -> PipelineError
  ) throws(PipelineError) -> Int {
    let result: (partialValue: Int, overflow: Bool)
    switch op {
    case .add: result = x.addingReportingOverflow(y)
    case .subtract: result = x.subtractingReportingOverflow(y)
    case .multiply: result = x.multipliedReportingOverflow(by: y)
    case .divide, .remainder:
      if y == 0 { throw fail("division by zero") }
      result = op == .divide ? x.dividedReportingOverflow(by: y) : x.remainderReportingOverflow(dividingBy: y)
    }
    if result.overflow { throw fail("integer overflow in \(x) \(op.rawValue) \(y)") }
    return result.partialValue
  }

  private func comparison(_ op: ComparisonOperator, _ left: Operand, _ right: Operand) -> BoolClosure {
    if case .constant(let constant) = right {
      return { a, b throws(PipelineError) in Self.compare(op, try left.value(a, b), constant) }
    }
    return { a, b throws(PipelineError) in Self.compare(op, try left.value(a, b), try right.value(a, b)) }
  }

  @inline(__always)
  private static func compare(_ op: ComparisonOperator, _ x: Int, _ y: Int) -> Bool {
    switch op {
    case .equal: x == y
    case .notEqual: x != y
    case .less: x < y
    case .greater: x > y
    case .lessOrEqual: x <= y
    case .greaterOrEqual: x >= y
    }
  }
}

/// Closures over Doubles: a Double expression of `Double` arguments, constants and Ints made
/// Double (`$0 * 1.5` with an Int `$0`) is compiled to one closure that reads its arguments out of
/// their `Value`s and computes in plain Doubles, with no `Value` boxed on the way.
struct DoubleCompiler {
  typealias DoubleClosure = @Sendable (Value, Value) throws(PipelineError) -> Double

  let ints: IntCompiler

  /// A Double expression; nil for one this compiler does not handle.
  func closure(_ expr: TypedExpr) -> DoubleClosure? {
    guard expr.type == .double else { return nil }
    switch expr.kind {
    case .constant(.double(let value)):
      return { _, _ in value }
    case .argument(let index, _):
      if index == 0 { return { a, _ in a.unboxedDouble } }
      return { _, b in b.unboxedDouble }
    case .toDouble(let operand):
      guard let operand = ints.operand(operand) else {
        return nil
      }
      return { a, b throws(PipelineError) in Double(try operand.value(a.unboxedInt, b.unboxedInt)) }
    case .negate(let operand):
      guard let operand = closure(operand) else { return nil }
      return { a, b throws(PipelineError) in -(try operand(a, b)) }
    case .arithmetic(let op, let left, let right):
      guard let left = closure(left), let right = closure(right) else { return nil }
      return { a, b throws(PipelineError) in
        let (x, y) = (try left(a, b), try right(a, b))
        switch op {
        case .add: return x + y
        case .subtract: return x - y
        case .multiply: return x * y
        case .divide: return x / y
        case .remainder: return x.truncatingRemainder(dividingBy: y)
        }
      }
    default:
      return nil
    }
  }
}

extension Value {
  /// The Int an argument the checker typed Int holds (an unused `$1` is `.none`: 0, never read).
  @inline(__always)
  var unboxedInt: Int {
    if case .int(let number) = self { return number }
    return 0
  }

  /// The Double an argument the checker typed Double holds.
  @inline(__always)
  var unboxedDouble: Double {
    if case .double(let number) = self { return number }
    return 0
  }
}
