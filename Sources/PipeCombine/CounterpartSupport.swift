import OpenCombine
import PipeSema

extension Value {
  /// An Int or Double as a Double.
  var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }
}

extension Value {
  /// What `ignoreOutput()` never sends, as a value: its publisher then fits a row.
  init(never: Never) { switch never {} }
}

/// A counterpart that exists for some forms of an operator, not this one.
struct Unmatched: Error {
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}
