import PipeSyntax

/// Type-checks closure bodies and constant arguments.
struct ExpressionChecker {
  /// The types of `$0` and `$1`; nil where the closure gets no such argument.
  let argumentTypes: [ValueType]
  /// The closure's named parameters (`{ acc, x in … }`), standing for `$0`, `$1`; empty when it
  /// uses `$0`.
  var parameters: [Identifier] = []
  var diagnostics: [Diagnostic] = []

  mutating func check(_ expr: Expr) -> TypedExpr? {
    let range = expr.range
    switch expr.kind {
    case .integer(let value): return TypedExpr(.constant(.int(value)), .int, range)
    case .float(let value): return TypedExpr(.constant(.double(value)), .double, range)
    case .duration(let value): return TypedExpr(.constant(.double(value.inSeconds)), .double, range)
    case .bool(let value): return TypedExpr(.constant(.bool(value)), .bool, range)
    case .nilLiteral: return TypedExpr(.constant(.none), .optional(.never), range)
    case .string(let parts): return checkString(parts, range)
    case .dollar(let index):
      guard parameters.isEmpty else {
        diagnostics.append(SemaMessages.dollarWithNamedParameters(index, parameters.map(\.name), range))
        return nil
      }
      guard index < argumentTypes.count else {
        diagnostics.append(SemaMessages.noSuchClosureArgument(index, count: argumentTypes.count, range))
        return nil
      }
      return TypedExpr(.argument(index, name: nil), argumentTypes[index], range)
    case .name(let name):
      if let index = parameters.firstIndex(where: { $0.name == name }), index < argumentTypes.count {
        return TypedExpr(.argument(index, name: name), argumentTypes[index], range)
      }
      diagnostics.append(SemaMessages.unknownName(name, range, parameters: parameters.map(\.name)))
      return nil
    case .missing, .closure, .pipeline, .verbatim:
      if expr.kind != .missing {
        diagnostics.append(SemaMessages.nestedClosure(range))
      }
      return nil
    case .unary(let op, let operand):
      guard let operand = check(operand) else { return nil }
      if op == "-" {
        guard operand.type == .int || operand.type == .double else {
          diagnostics.append(SemaMessages.operatorMismatch(op, operand.type, nil, range))
          return nil
        }
        return TypedExpr(.negate(operand), operand.type, range)
      }
      guard operand.type == .bool else {
        diagnostics.append(SemaMessages.operatorMismatch(op, operand.type, nil, range))
        return nil
      }
      return TypedExpr(.not(operand), .bool, range)
    case .binary(let op, let left, let right):
      let left = check(left)
      let right = check(right)
      guard let left, let right else { return nil }
      return checkBinary(op, left, right, range)
    case .ternary(let condition, let yes, let no):
      let condition = check(condition)
      let yes = check(yes)
      let no = check(no)
      guard let condition, let yes, let no else { return nil }
      guard condition.type == .bool else {
        diagnostics.append(SemaMessages.notBool("the condition of '? :'", condition.type, condition.range))
        return nil
      }
      guard let type = ValueType.join(yes.type, no.type) else {
        diagnostics.append(SemaMessages.branchMismatch(yes.type, no.type, range))
        return nil
      }
      return TypedExpr(.conditional(condition, promote(yes, to: type), promote(no, to: type)), type, range)
    case .tupleIndex(let base, let index):
      guard let base = check(base) else { return nil }
      guard case .tuple(let members) = base.type, index < members.count else {
        diagnostics.append(SemaMessages.noTupleMember(index, of: base.type, range))
        return nil
      }
      return TypedExpr(.tupleMember(base, index), members[index], range)
    case .subscripted(let base, let index):
      let base = check(base)
      let index = check(index)
      guard let base, let index else { return nil }
      guard case .array(let element) = base.type else {
        diagnostics.append(SemaMessages.notSubscriptable(base.type, range))
        return nil
      }
      guard index.type == .int else {
        diagnostics.append(
          SemaMessages.argumentMismatch("an array index", expected: "Int", found: index.type, index.range))
        return nil
      }
      return TypedExpr(.element(base, index), element, range)
    case .member(let base, let member):
      guard let base = check(base) else { return nil }
      switch (member.name, base.type) {
      case ("count", .array), ("count", .string): return TypedExpr(.count(base), .int, range)
      case ("isEmpty", .array), ("isEmpty", .string): return TypedExpr(.isEmpty(base), .bool, range)
      default:
        diagnostics.append(SemaMessages.noMember(member.name, of: base.type, member.range))
        return nil
      }
    case .call(let callee, let arguments):
      return checkCall(callee, arguments, range)
    case .array(let elements):
      let checked = elements.map { check($0) }
      let typed = checked.compactMap { $0 }
      guard typed.count == checked.count else { return nil }
      var elementType = ValueType.never
      for element in typed {
        guard let joined = ValueType.join(elementType, element.type) else {
          diagnostics.append(SemaMessages.mixedArray(elementType, element.type, element.range))
          return nil
        }
        elementType = joined
      }
      return TypedExpr(.array(typed.map { promote($0, to: elementType) }), .array(elementType), range)
    case .tuple(let elements):
      let checked = elements.map { check($0) }
      let typed = checked.compactMap { $0 }
      guard typed.count == checked.count else { return nil }
      return TypedExpr(.tuple(typed), .tuple(typed.map(\.type)), range)
    }
  }

  private mutating func checkString(_ parts: [StringPart], _ range: SourceRange) -> TypedExpr? {
    if parts.count == 1, case .text(let text) = parts[0] {
      return TypedExpr(.constant(.string(text)), .string, range)
    }
    var pieces: [TypedExpr] = []
    var failed = false
    for part in parts {
      switch part {
      case .text(let text): pieces.append(TypedExpr(.constant(.string(text)), .string, range))
      case .interpolation(let expr):
        if let typed = check(expr) { pieces.append(typed) } else { failed = true }
      }
    }
    return failed ? nil : TypedExpr(.interpolation(pieces), .string, range)
  }

  private mutating func checkBinary(
    _ op: String, _ left: TypedExpr, _ right: TypedExpr, _ range: SourceRange
  )
    -> TypedExpr?
  {
    switch op {
    case "&&", "||":
      guard left.type == .bool, right.type == .bool else {
        diagnostics.append(SemaMessages.operatorMismatch(op, left.type, right.type, range))
        return nil
      }
      return TypedExpr(op == "&&" ? .and(left, right) : .or(left, right), .bool, range)
    case "+" where left.type == .string && right.type == .string:
      return TypedExpr(.concatenate(left, right), .string, range)
    case "+" where left.type == right.type && { if case .array = left.type { true } else { false } }():
      return TypedExpr(.concatenate(left, right), left.type, range)
    case "+", "-", "*", "/", "%":
      guard left.type.isNumeric, right.type.isNumeric, let type = ValueType.join(left.type, right.type),
        let arithmetic = ArithmeticOperator(rawValue: op)
      else {
        diagnostics.append(SemaMessages.operatorMismatch(op, left.type, right.type, range))
        return nil
      }
      let resultType = type == .never ? ValueType.int : type
      return TypedExpr(
        .arithmetic(arithmetic, promote(left, to: resultType), promote(right, to: resultType)), resultType, range)
    default:
      guard let comparison = ComparisonOperator(rawValue: op) else { return nil }
      guard let type = ValueType.join(left.type, right.type) else {
        diagnostics.append(SemaMessages.operatorMismatch(op, left.type, right.type, range))
        return nil
      }
      let ordered = comparison != .equal && comparison != .notEqual
      if ordered, !type.isComparable {
        diagnostics.append(SemaMessages.operatorMismatch(op, left.type, right.type, range))
        return nil
      }
      return TypedExpr(.compare(comparison, promote(left, to: type), promote(right, to: type)), .bool, range)
    }
  }

  private mutating func checkCall(_ callee: Expr, _ arguments: [Argument], _ range: SourceRange) -> TypedExpr? {
    if case .member(let base, let member) = callee.kind, member.name == "joined" {
      guard let base = check(base) else { return nil }
      guard base.type == .array(.string) else {
        diagnostics.append(SemaMessages.noMember("joined()", of: base.type, member.range))
        return nil
      }
      var separator: TypedExpr?
      if let argument = arguments.first {
        guard argument.label?.name == "separator", arguments.count == 1 else {
          diagnostics.append(SemaMessages.badCallArguments("joined", "joined() or joined(separator: \",\")", range))
          return nil
        }
        guard let typed = check(argument.value) else { return nil }
        guard typed.type == .string else {
          diagnostics.append(
            SemaMessages.argumentMismatch("separator:", expected: "String", found: typed.type, typed.range))
          return nil
        }
        separator = typed
      }
      return TypedExpr(.joined(base, separator: separator), .string, range)
    }
    guard case .name(let name) = callee.kind else {
      diagnostics.append(SemaMessages.notCallable(callee.range))
      return nil
    }
    guard let function = BuiltinFunction(rawValue: name) else {
      let note = NameSuggester.note(for: name, in: BuiltinFunction.allCases.map(\.rawValue))
      diagnostics.append(SemaMessages.unknownFunction(name, callee.range).adding(note: note))
      return nil
    }
    let checked = arguments.map { check($0.value) }
    let typed = checked.compactMap { $0 }
    guard typed.count == checked.count else { return nil }
    if let labeled = arguments.first(where: { $0.label != nil }), let label = labeled.label {
      diagnostics.append(SemaMessages.badCallArguments(name, usage(of: function), label.range))
      return nil
    }
    let arity = (function == .min || function == .max) ? 2 : 1
    guard typed.count == arity else {
      diagnostics.append(SemaMessages.badCallArguments(name, usage(of: function), range))
      return nil
    }
    let argument = typed[0]
    switch function {
    case .str:
      return TypedExpr(.function(.str, typed), .string, range)
    case .int:
      switch argument.type {
      case .int, .double: return TypedExpr(.function(.int, typed), .int, range)
      case .string: return TypedExpr(.function(.int, typed), .optional(.int), range)
      case .bool: return TypedExpr(.function(.int, typed), .int, range)
      default: break
      }
    case .double:
      switch argument.type {
      case .int, .double: return TypedExpr(.function(.double, typed), .double, range)
      case .string: return TypedExpr(.function(.double, typed), .optional(.double), range)
      default: break
      }
    case .abs:
      if argument.type == .int || argument.type == .double {
        return TypedExpr(.function(.abs, typed), argument.type, range)
      }
    case .min, .max:
      if let type = ValueType.join(typed[0].type, typed[1].type), type.isComparable {
        return TypedExpr(.function(function, typed.map { promote($0, to: type) }), type, range)
      }
    }
    let found = typed.map(\.type.description).joined(separator: ", ")
    diagnostics.append(SemaMessages.badCallArguments(name, usage(of: function) + ", not (\(found))", range))
    return nil
  }

  private func usage(of function: BuiltinFunction) -> String {
    switch function {
    case .str: "str(x) takes one value of any type"
    case .int: "int(x) takes an Int, Double, Bool or String"
    case .double: "double(x) takes an Int, Double or String"
    case .abs: "abs(x) takes an Int or a Double"
    case .min, .max: "\(function.rawValue)(a, b) takes two values of one comparable type"
    }
  }
}

/// Wraps `expr` so its value has type `type`: Int to Double where needed.
func promote(_ expr: TypedExpr, to type: ValueType) -> TypedExpr {
  if expr.type == .int, type == .double || type == .optional(.double) {
    return TypedExpr(.toDouble(expr), .double, expr.range)
  }
  return expr
}

/// Converts a constant value to `type` (Int to Double), as `promote` does for expressions.
func convert(_ value: Value, to type: ValueType) -> Value {
  switch (value, type) {
  case (.int(let int), .double), (.int(let int), .optional(.double)): return .double(Double(int))
  case (.array(let elements), .array(let element)): return .array(elements.map { convert($0, to: element) })
  case (.tuple(let members), .tuple(let types)) where members.count == types.count:
    return .tuple(zip(members, types).map { convert($0, to: $1) })
  default: return value
  }
}
