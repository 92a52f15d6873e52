import PipeSema

/// A compiled closure: `$0` and `$1` in, a value out.
public typealias CompiledClosure = @Sendable (Value, Value) throws(PipelineError) -> Value

/// A compiled Int expression of Int arguments: plain `$0` and `$1` in, a plain Int out.
public typealias IntClosure = @Sendable (Int, Int) throws(PipelineError) -> Int

/// A compiled Bool expression of Int arguments.
public typealias IntPredicate = @Sendable (Int, Int) throws(PipelineError) -> Bool

/// Compiles checked expressions to closures once, so the per-element path runs no type dispatch
/// beyond the values' own cases.
public struct Evaluator: Sendable {
  /// The stage text errors are reported against.
  let stage: String
  /// The node errors are reported against, when the closure belongs to one.
  let nodeID: Int?

  public init(stage: String, nodeID: Int? = nil) {
    self.stage = stage
    self.nodeID = nodeID
  }

  /// The closure of `expr`: over plain Ints where its values are all Ints (`IntCompiler`), else
  /// over `Value`s, its parts compiled the same way.
  public func compile(_ expr: TypedExpr) -> CompiledClosure {
    // Not `??`: through its generic parameter the closure would come back wrapped in a
    // reabstraction thunk, one more call per element.
    if let specialized = specialized(expr) { return specialized }
    return compileGeneric(expr, recurse: compile)
  }

  /// The closure of `expr` over `Value`s all the way down: the reference the specialised closures
  /// are tested against.
  public func compileReference(_ expr: TypedExpr) -> CompiledClosure {
    compileGeneric(expr, recurse: compileReference)
  }

  /// The closure of an Int expression whose every part is an Int, over plain Ints; nil for any
  /// other. Its caller knows its arguments are Ints (the stage's input type).
  public func intClosure(_ expr: TypedExpr) -> IntClosure? {
    IntCompiler(fail: fail).operand(expr)?.closure
  }

  /// The closure of a Bool expression over Ints (a comparison, `&&`, …), over plain Ints; nil for
  /// any other.
  public func intPredicate(_ expr: TypedExpr) -> IntPredicate? {
    IntCompiler(fail: fail).predicate(expr)
  }

  private var fail: @Sendable (String) -> PipelineError {
    let stage = self.stage
    let nodeID = self.nodeID
    return { PipelineError(stage: stage, message: $0, nodeID: nodeID) }
  }

  /// An Int or Bool expression that reads only Ints, as a closure over plain Ints, or a Double
  /// expression, as a closure over plain Doubles: boxed once.
  private func specialized(_ expr: TypedExpr) -> CompiledClosure? {
    let compiler = IntCompiler(fail: fail)
    if expr.type == .double, let closure = DoubleCompiler(ints: compiler).valueClosure(expr) {
      return closure
    }
    if let operand = compiler.operand(expr), case .closure(let closure) = operand {
      return { a, b throws(PipelineError) in .int(try closure(a.unboxedInt, b.unboxedInt)) }
    }
    if let predicate = compiler.predicate(expr) {
      return { a, b throws(PipelineError) in .bool(try predicate(a.unboxedInt, b.unboxedInt)) }
    }
    if case .interpolation(let pieces) = expr.kind {
      return interpolation(pieces, compiler)
    }
    return nil
  }

  /// One piece of a string interpolation, compiled: a literal's text, an Int expression (no
  /// `Value` boxed), or any other expression.
  private enum InterpolationPiece: Sendable {
    case literal(String)
    case int(IntCompiler.Operand)
    case value(CompiledClosure)
  }

  /// A string interpolation as one loop over its compiled pieces: a literal piece with no call, an
  /// Int expression's with no `Value` boxed. A loop, not a closure per piece calling the next's: an
  /// interpolation of 40,000 pieces nested as many calls and overflowed the stack.
  private func interpolation(_ pieces: [TypedExpr], _ compiler: IntCompiler) -> CompiledClosure {
    let compiled: [InterpolationPiece] = pieces.map { piece in
      if case .constant(let constant) = piece.kind { return .literal(constant.printed) }
      if let operand = compiler.operand(piece) { return .int(operand) }
      return .value(compile(piece))
    }
    return { a, b throws(PipelineError) in
      var text = ""
      for piece in compiled {
        switch piece {
        case .literal(let literal): text += literal
        case .int(let operand): text += String(try operand.value(a.unboxedInt, b.unboxedInt))
        case .value(let value): text += try value(a, b).printed
        }
      }
      return .string(text)
    }
  }

  private func compileGeneric(_ expr: TypedExpr, recurse compile: (TypedExpr) -> CompiledClosure) -> CompiledClosure {
    let fail = self.fail
    switch expr.kind {
    case .constant(let value):
      return { _, _ in value }
    case .argument(let index, _):
      if index == 0 { return { a, _ in a } }
      return { _, b in b }
    case .negate(let operand):
      let operand = compile(operand)
      return { a, b throws(PipelineError) in
        switch try operand(a, b) {
        case .int(let value):
          let (result, overflow) = Int(0).subtractingReportingOverflow(value)
          if overflow { throw fail("integer overflow in -\(value)") }
          return .int(result)
        case .double(let value): return .double(-value)
        default: return .none
        }
      }
    case .not(let operand):
      let operand = compile(operand)
      return { a, b throws(PipelineError) in
        if case .bool(let value) = try operand(a, b) { return .bool(!value) }
        return .none
      }
    case .arithmetic(let op, let left, let right):
      return compileArithmetic(op, compile(left), compile(right), fail)
    case .concatenate(let left, let right):
      let left = compile(left)
      let right = compile(right)
      return { a, b throws(PipelineError) in
        switch (try left(a, b), try right(a, b)) {
        case (.string(let x), .string(let y)): return .string(x + y)
        case (.array(let x), .array(let y)): return .array(x + y)
        default: return .none
        }
      }
    case .compare(let op, let left, let right):
      let left = compile(left)
      let right = compile(right)
      return { a, b throws(PipelineError) in
        .bool(Self.compare(op, try left(a, b), try right(a, b)))
      }
    case .and(let left, let right):
      let left = compile(left)
      let right = compile(right)
      return { a, b throws(PipelineError) in
        guard case .bool(true) = try left(a, b) else { return .bool(false) }
        return try right(a, b)
      }
    case .or(let left, let right):
      let left = compile(left)
      let right = compile(right)
      return { a, b throws(PipelineError) in
        if case .bool(true) = try left(a, b) { return .bool(true) }
        return try right(a, b)
      }
    case .conditional(let condition, let yes, let no):
      let condition = compile(condition)
      let yes = compile(yes)
      let no = compile(no)
      return { a, b throws(PipelineError) in
        if case .bool(true) = try condition(a, b) { return try yes(a, b) }
        return try no(a, b)
      }
    case .tupleMember(let base, let index):
      let base = compile(base)
      return { a, b throws(PipelineError) in
        guard case .tuple(let members) = try base(a, b), index < members.count else { return .none }
        return members[index]
      }
    case .element(let base, let index):
      let base = compile(base)
      let index = compile(index)
      return { a, b throws(PipelineError) in
        guard case .array(let elements) = try base(a, b), case .int(let position) = try index(a, b) else {
          return .none
        }
        guard elements.indices.contains(position) else {
          throw fail("index \(position) out of range for an array of \(elements.count)")
        }
        return elements[position]
      }
    case .count(let base):
      let base = compile(base)
      return { a, b throws(PipelineError) in
        switch try base(a, b) {
        case .array(let elements): return .int(elements.count)
        case .string(let text): return .int(text.count)
        default: return .none
        }
      }
    case .isEmpty(let base):
      let base = compile(base)
      return { a, b throws(PipelineError) in
        switch try base(a, b) {
        case .array(let elements): return .bool(elements.isEmpty)
        case .string(let text): return .bool(text.isEmpty)
        default: return .none
        }
      }
    case .joined(let base, let separator):
      let base = compile(base)
      let separator = separator.map { compile($0) }
      return { a, b throws(PipelineError) in
        guard case .array(let elements) = try base(a, b) else { return .none }
        var glue = ""
        if let separator, case .string(let text) = try separator(a, b) { glue = text }
        return .string(elements.map(\.printed).joined(separator: glue))
      }
    case .function(let function, let arguments):
      return compileFunction(function, arguments.map { compile($0) }, fail)
    case .array(let elements):
      let elements = elements.map { compile($0) }
      return { a, b throws(PipelineError) in
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for element in elements { values.append(try element(a, b)) }
        return .array(values)
      }
    case .tuple(let members):
      let members = members.map { compile($0) }
      return { a, b throws(PipelineError) in
        var values: [Value] = []
        values.reserveCapacity(members.count)
        for member in members { values.append(try member(a, b)) }
        return .tuple(values)
      }
    case .interpolation(let pieces):
      let pieces = pieces.map { compile($0) }
      return { a, b throws(PipelineError) in
        var text = ""
        for piece in pieces { text += try piece(a, b).printed }
        return .string(text)
      }
    case .toDouble(let operand):
      let operand = compile(operand)
      return { a, b throws(PipelineError) in
        if case .int(let value) = try operand(a, b) { return .double(Double(value)) }
        return try operand(a, b)
      }
    }
  }

  private func compileArithmetic(
    _ op: ArithmeticOperator, _ left: @escaping CompiledClosure, _ right: @escaping CompiledClosure,
    _ fail: @escaping @Sendable (String) -> PipelineError
  ) -> CompiledClosure {
    { a, b throws(PipelineError) in
      switch (try left(a, b), try right(a, b)) {
      case (.int(let x), .int(let y)):
        return .int(try IntCompiler.apply(op, x, y, fail))
      case (.double(let x), .double(let y)):
        switch op {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        case .divide: return .double(x / y)
        case .remainder: return .double(x.truncatingRemainder(dividingBy: y))
        }
      default:
        return .none
      }
    }
  }

  private func compileFunction(
    _ function: BuiltinFunction, _ arguments: [CompiledClosure], _ fail: @escaping @Sendable (String) -> PipelineError
  ) -> CompiledClosure {
    let first = arguments[0]
    switch function {
    case .str:
      return { a, b throws(PipelineError) in .string(try first(a, b).printed) }
    case .int:
      return { a, b throws(PipelineError) in
        switch try first(a, b) {
        case .int(let value): return .int(value)
        case .bool(let value): return .int(value ? 1 : 0)
        case .double(let value):
          guard let exact = Int(exactly: value.rounded(.towardZero)) else {
            throw fail("\(value) does not fit in an Int")
          }
          return .int(exact)
        case .string(let text): return Int(text).map { .int($0) } ?? .none
        default: return .none
        }
      }
    case .double:
      return { a, b throws(PipelineError) in
        switch try first(a, b) {
        case .int(let value): return .double(Double(value))
        case .double(let value): return .double(value)
        case .string(let text): return Double(text).map { .double($0) } ?? .none
        default: return .none
        }
      }
    case .abs:
      return { a, b throws(PipelineError) in
        switch try first(a, b) {
        case .int(let value):
          guard value != .min else { throw fail("integer overflow in abs(\(value))") }
          return .int(Swift.abs(value))
        case .double(let value): return .double(Swift.abs(value))
        default: return .none
        }
      }
    case .min, .max:
      let second = arguments[1]
      let wantsMin = function == .min
      return { a, b throws(PipelineError) in
        let x = try first(a, b)
        let y = try second(a, b)
        let xFirst = Self.compare(.lessOrEqual, x, y)
        return wantsMin == xFirst ? x : y
      }
    }
  }

  /// Compares two values of one type.
  public static func compare(_ op: ComparisonOperator, _ x: Value, _ y: Value) -> Bool {
    switch op {
    case .equal: return x == y
    case .notEqual: return x != y
    case .less: return less(x, y)
    case .greater: return less(y, x)
    case .lessOrEqual: return !less(y, x)
    case .greaterOrEqual: return !less(x, y)
    }
  }

  /// The order `min`, `max` and `<` use.
  public static func less(_ x: Value, _ y: Value) -> Bool {
    switch (x, y) {
    case (.int(let a), .int(let b)): a < b
    case (.double(let a), .double(let b)): a < b
    case (.int(let a), .double(let b)): Double(a) < b
    case (.double(let a), .int(let b)): a < Double(b)
    case (.string(let a), .string(let b)): a < b
    default: false
    }
  }
}
