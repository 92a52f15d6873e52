import AsyncAlgorithms
import Foundation

/// `buffer`'s size: 0 or more (AA's `bufferingOldest(0)` passes elements straight through).
/// Worked out from a `flatMap` body's element (`take $0`, `element` when it is not the
/// argument itself), checked as pipesh checks it, where the operator would trap.
func checkedSize(_ value: Int, in stage: String, of element: Any? = nil) throws -> Int {
  let shown = element.map { "\($0)" } ?? "\(value)"
  guard value >= 0 else {
    throw StageError(stage: "\(stage) ($0 = \(shown))", message: "the size must be 0 or more")
  }
  return value
}
