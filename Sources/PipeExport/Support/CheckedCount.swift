import AsyncAlgorithms
import Foundation

/// A count: 0 or more, or with `least: 1` 1 or more.
/// Worked out from a `flatMap` body's element (`take $0`, `element` when it is not the
/// argument itself), checked as pipesh checks it, where the operator would trap.
func checkedCount(
  _ value: Int, _ name: String, least: Int = 0, in stage: String, of element: Any? = nil
) throws -> Int {
  let shown = element.map { "\($0)" } ?? "\(value)"
  guard value >= least else {
    let message = "\(name) must be \(least) or more, not \(value)"
    throw StageError(stage: "\(stage) ($0 = \(shown))", message: message)
  }
  return value
}
