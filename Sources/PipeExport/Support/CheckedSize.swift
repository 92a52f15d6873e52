import AsyncAlgorithms
import Foundation

/// `buffer`'s size: at least 1.
/// Worked out from a `flatMap` body's element (`take $0`, `element` when it is not the
/// argument itself), checked as pipesh checks it, where the operator would trap.
func checkedSize(_ value: Int, in stage: String, of element: Any? = nil) throws -> Int {
  let shown = element.map { "\($0)" } ?? "\(value)"
  guard value >= 1 else {
    throw StageError(stage: "\(stage) ($0 = \(shown))", message: "the size must be at least 1")
  }
  return value
}
