import AsyncAlgorithms
import Foundation

/// A duration in seconds: more than zero (or 0 or more, `orZero`), at least 1ns, at most 10^9 s.
/// Worked out from a `flatMap` body's element (`take $0`, `element` when it is not the
/// argument itself), checked as pipesh checks it, where the operator would trap.
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
