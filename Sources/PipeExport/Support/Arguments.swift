import AsyncAlgorithms
import Foundation

// Arguments worked out from a `flatMap` body's element (`take $0`), checked as pipesh checks
// them: the job fails with pipesh's message where the operator would trap or do something else.
// `element` is the body's element, when the argument is not the element itself.

/// A count: 0 or more, or with `least: 1` 1 or more.
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

/// `buffer`'s size: at least 1.
func checkedSize(_ value: Int, in stage: String, of element: Any? = nil) throws -> Int {
  let shown = element.map { "\($0)" } ?? "\(value)"
  guard value >= 1 else {
    throw StageError(stage: "\(stage) ($0 = \(shown))", message: "the size must be at least 1")
  }
  return value
}

/// `random`'s bounds: LO not larger than HI.
func checkedRange(
  _ low: Int, _ high: Int, in stage: String, of element: Any
) throws -> ClosedRange<Int> {
  guard low <= high else {
    let message = "LO (\(low)) must not be larger than HI (\(high))"
    throw StageError(stage: "\(stage) ($0 = \(element))", message: message)
  }
  return low...high
}

/// `range`'s step: not 0.
func checkedStep<Step: Numeric>(
  _ value: Step, in stage: String, of element: Any? = nil
) throws -> Step {
  let shown = element.map { "\($0)" } ?? "\(value)"
  guard value != 0 else {
    throw StageError(stage: "\(stage) ($0 = \(shown))", message: "the step cannot be 0")
  }
  return value
}

/// A duration in seconds: more than zero (or 0 or more, `orZero`), at least 1ns, at most 10^9 s.
func checkedDuration(
  _ seconds: Int, _ name: String, orZero: Bool = false, in stage: String, of element: Any? = nil
) throws -> Duration {
  try checkedDuration(
    Double(seconds), name, orZero: orZero, in: stage, of: element ?? seconds, shown: "\(seconds)")
}

func checkedDuration(
  _ seconds: Double, _ name: String, orZero: Bool = false, in stage: String, of element: Any? = nil,
  shown written: String? = nil
) throws -> Duration {
  let shown = element.map { "\($0)" } ?? "\(seconds)"
  let value = written ?? "\(seconds)"
  func failure(_ rule: String) -> StageError {
    StageError(
      stage: "\(stage) ($0 = \(shown))", message: "\(name) must be \(rule), not \(value)")
  }
  let nanoseconds = seconds * 1e9
  guard nanoseconds.isFinite, abs(nanoseconds) <= 1e18 else {
    throw failure("at most 1000000000s (about 31 years)")
  }
  let duration = Duration.nanoseconds(Int64(nanoseconds.rounded()))
  if seconds > 0 && duration == .zero && !orZero { throw failure("at least 1ns") }
  guard duration > .zero || (orZero && duration == .zero) else {
    throw failure(orZero ? "0 or more" : "more than zero")
  }
  return duration
}
