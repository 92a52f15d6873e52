import PipeSyntax

/// Folds constant expressions (literals, arrays, tuples) to values.
struct ConstantChecker {
  var diagnostics: [Diagnostic] = []

  mutating func check(_ expr: Expr) -> (Value, ValueType)? {
    switch expr.kind {
    case .integer(let value): return (.int(value), .int)
    case .float(let value): return (.double(value), .double)
    case .duration(let value): return (.double(value.inSeconds), .double)
    case .bool(let value): return (.bool(value), .bool)
    case .nilLiteral: return (.none, .optional(.never))
    case .string(let parts):
      guard parts.count == 1, case .text(let text) = parts[0] else { return nil }
      return (.string(text), .string)
    case .array(let elements):
      var values: [Value] = []
      var type = ValueType.never
      for element in elements {
        guard let (value, valueType) = check(element) else { return nil }
        guard let joined = ValueType.join(type, valueType) else {
          diagnostics.append(SemaMessages.mixedArray(type, valueType, element.range))
          return nil
        }
        type = joined
        values.append(value)
      }
      return (.array(values.map { convert($0, to: type) }), .array(type))
    case .tuple(let elements):
      var values: [Value] = []
      var types: [ValueType] = []
      for element in elements {
        guard let (value, type) = check(element) else { return nil }
        values.append(value)
        types.append(type)
      }
      return (.tuple(values), .tuple(types))
    default:
      return nil
    }
  }
}
