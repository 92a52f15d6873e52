import PipeSema

/// Closures over Ints: an expression whose values are all `Int` (or `Bool` from comparing Ints) is
/// compiled to closures that take and return plain `Int`s and `Bool`s, with no `Value` boxed on
/// the way and, where a side is `$0` or a constant, no closure called for it. The generic
/// `Evaluator.compileReference` is the reference they are tested against: the same results, and
/// the same errors with the same messages.
struct IntCompiler {
  let fail: @Sendable (String) -> PipelineError

  /// One side of an operator: `$0`, `$1`, a constant, or an expression's closure.
  enum Operand: Sendable {
    case argument(Int)
    case constant(Int)
    case closure(IntClosure)

    /// The operand as a closure of its own.
    var closure: IntClosure {
      switch self {
      case .argument(0): { a, _ in a }
      case .argument: { _, b in b }
      case .constant(let value): { _, _ in value }
      case .closure(let closure): closure
      }
    }

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
  func predicate(_ expr: TypedExpr) -> IntPredicate? {
    guard expr.type == .bool else { return nil }
    switch expr.kind {
    case .constant(.bool(let value)):
      return { _, _ in value }
    case .compare(let op, let left, let right):
      guard let leftOperand = operand(left), let rightOperand = operand(right) else { return nil }
      // `$0 % 3 == 0`, a common shape, is one closure rather than one calling another.
      if case .arithmetic(let arithmetic, let x, let y) = left.kind, case .argument(0, _) = x.kind,
        case .constant(.int(let c)) = y.kind, case .constant(.int(let d)) = right.kind
      {
        let fail = self.fail
        return { a, _ throws(PipelineError) in Self.compare(op, try Self.apply(arithmetic, a, c, fail), d) }
      }
      return comparison(op, leftOperand, rightOperand)
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
    if case .argument(0) = left, case .constant(let c) = right {
      // The operator chosen here, once: each closure has its own, inlined, with no switch per call.
      switch op {
      case .add: return { a, _ throws(PipelineError) in try Self.apply(.add, a, c, fail) }
      case .subtract: return { a, _ throws(PipelineError) in try Self.apply(.subtract, a, c, fail) }
      case .multiply: return { a, _ throws(PipelineError) in try Self.apply(.multiply, a, c, fail) }
      case .divide: return { a, _ throws(PipelineError) in try Self.apply(.divide, a, c, fail) }
      case .remainder: return { a, _ throws(PipelineError) in try Self.apply(.remainder, a, c, fail) }
      }
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

  private func comparison(_ op: ComparisonOperator, _ left: Operand, _ right: Operand) -> IntPredicate {
    if case .constant(let c) = right {
      // As in `arithmetic`, the operator chosen once.
      switch op {
      case .equal: return { a, b throws(PipelineError) in Self.compare(.equal, try left.value(a, b), c) }
      case .notEqual: return { a, b throws(PipelineError) in Self.compare(.notEqual, try left.value(a, b), c) }
      case .less: return { a, b throws(PipelineError) in Self.compare(.less, try left.value(a, b), c) }
      case .greater: return { a, b throws(PipelineError) in Self.compare(.greater, try left.value(a, b), c) }
      case .lessOrEqual: return { a, b throws(PipelineError) in Self.compare(.lessOrEqual, try left.value(a, b), c) }
      case .greaterOrEqual:
        return { a, b throws(PipelineError) in Self.compare(.greaterOrEqual, try left.value(a, b), c) }
      }
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
/// their `Value`s and computes in plain Doubles, with no `Value` boxed on the way and, where a side
/// is an argument or a constant, no closure called for it.
struct DoubleCompiler {
  typealias DoubleClosure = @Sendable (Value, Value) throws(PipelineError) -> Double

  let ints: IntCompiler

  /// One side of an operator: `$0` or `$1` (a Double, or an Int made Double), a constant, or an
  /// expression's closure.
  enum Operand: Sendable {
    case argument(Int)
    case intArgument(Int)
    case constant(Double)
    case closure(DoubleClosure)

    @inline(__always)
    func value(_ a: Value, _ b: Value) throws(PipelineError) -> Double {
      switch self {
      case .argument(let index): index == 0 ? a.unboxedDouble : b.unboxedDouble
      case .intArgument(let index): Double(index == 0 ? a.unboxedInt : b.unboxedInt)
      case .constant(let value): value
      case .closure(let closure): try closure(a, b)
      }
    }
  }

  /// A Double expression, boxed as a `Value`; nil for one this compiler does not handle. The
  /// outermost operator boxes what it computes: no closure calls another only to box its result.
  func valueClosure(_ expr: TypedExpr) -> CompiledClosure? {
    if expr.type == .double, case .arithmetic(let op, let left, let right) = expr.kind {
      guard let x = operand(left), let y = operand(right) else { return nil }
      return { a, b throws(PipelineError) in .double(Self.apply(op, try x.value(a, b), try y.value(a, b))) }
    }
    guard let operand = operand(expr) else { return nil }
    return { a, b throws(PipelineError) in .double(try operand.value(a, b)) }
  }

  private func operand(_ expr: TypedExpr) -> Operand? {
    guard expr.type == .double else { return nil }
    switch expr.kind {
    case .constant(.double(let value)):
      return .constant(value)
    case .argument(let index, _):
      return .argument(index)
    case .toDouble(let operand):
      switch ints.operand(operand) {
      case nil: return nil
      case .argument(let index)?: return .intArgument(index)
      case .constant(let value)?: return .constant(Double(value))
      case let operand?:
        return .closure { a, b throws(PipelineError) in Double(try operand.value(a.unboxedInt, b.unboxedInt)) }
      }
    case .negate(let operand):
      guard let operand = self.operand(operand) else { return nil }
      return .closure { a, b throws(PipelineError) in -(try operand.value(a, b)) }
    case .arithmetic(let op, let left, let right):
      guard let left = operand(left), let right = operand(right) else { return nil }
      return .closure(arithmetic(op, left, right))
    default:
      return nil
    }
  }

  private func arithmetic(_ op: ArithmeticOperator, _ x: Operand, _ y: Operand) -> DoubleClosure {
    { a, b throws(PipelineError) in Self.apply(op, try x.value(a, b), try y.value(a, b)) }
  }

  @inline(__always)
  private static func apply(_ op: ArithmeticOperator, _ x: Double, _ y: Double) -> Double {
    switch op {
    case .add: x + y
    case .subtract: x - y
    case .multiply: x * y
    case .divide: x / y
    case .remainder: x.truncatingRemainder(dividingBy: y)
    }
  }
}

extension Value {
  /// The Int an argument the checker typed Int holds (an unused `$1` is `.none`: 0, never read).
  @inlinable
  public var unboxedInt: Int {
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
