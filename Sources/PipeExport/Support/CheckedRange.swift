import AsyncAlgorithms
import Foundation

/// `random`'s bounds: LO not larger than HI.
/// Worked out from a `flatMap` body's element (`take $0`, `element` when it is not the
/// argument itself), checked as pipesh checks it, where the operator would trap.
func checkedRange(
  _ low: Int, _ high: Int, in stage: String, of element: Any
) throws -> ClosedRange<Int> {
  guard low <= high else {
    let message = "LO (\(low)) must not be larger than HI (\(high))"
    throw StageError(stage: "\(stage) ($0 = \(element))", message: message)
  }
  return low...high
}
