import Testing

/// Records the sequence `build` makes on a `TestClock` (as `Marbles.record` does) and compares it
/// with `expected`, a diagram in swift-async-algorithms' notation. When they differ, records a
/// Swift Testing issue at `sourceLocation` whose comment is the first difference in words and both
/// lanes drawn under one ruler, the difference marked:
///
/// ```
/// at step 5: expected 'e', got nothing
///           1   5
/// expected  a-c-e-|
/// actual    a-c---|
///               ^
/// ```
///
/// A malformed `expected` is recorded as an issue too (and the sequence is not run). Returns the
/// comparison, or nil when `expected` is malformed.
///
/// - Parameters:
///   - expected: the diagram the sequence should draw; events after its first end are ignored.
///   - step: how much virtual time one character stands for.
///   - horizon: when to stop consuming; nil: until the sequence ends or nothing can happen any more.
///   - build: makes the sequence, on the clock it is given.
@discardableResult
public func expectMarbles<Recorded: AsyncSequence & SendableMetatype>(
  _ expected: String, step: Duration = .seconds(1), until horizon: Duration? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ build: @escaping @Sendable (TestClock) -> Recorded
) async -> MarbleComparison? {
  let marbles: Marbles
  do {
    marbles = try Marbles(expected)
  } catch {
    Issue.record("\(error)", sourceLocation: sourceLocation)
    return nil
  }
  let actual = await Marbles.record(
    step: step, until: horizon, markingCancellation: marbles.events.contains { $0.event == .cancelled }, build)
  let comparison = MarbleComparison(expected: marbles.reachable, actual: actual)
  if !comparison.holds {
    Issue.record(Comment(rawValue: comparison.description), sourceLocation: sourceLocation)
  }
  return comparison
}
