import AsyncAlgorithms
import Foundation

/// `range`'s step: not 0.
/// Worked out from a `flatMap` body's element (`take $0`, `element` when it is not the
/// argument itself), checked as pipesh checks it, where the operator would trap.
func checkedStep<Step: Numeric>(
  _ value: Step, in stage: String, of element: Any? = nil
) throws -> Step {
  let shown = element.map { "\($0)" } ?? "\(value)"
  guard value != 0 else {
    throw StageError(stage: "\(stage) ($0 = \(shown))", message: "the step cannot be 0")
  }
  return value
}
