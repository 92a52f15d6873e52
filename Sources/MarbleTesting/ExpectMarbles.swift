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
///   - horizon: when to stop consuming; nil: at `expected`'s `;` (the sequence is cancelled just
///     before that step's events, as swift-async-algorithms' validation does), else until the
///     sequence ends or nothing can happen any more (an endless one needs a horizon).
///   - sourceLocation: where a failure is recorded: the call's by default.
///   - build: makes the sequence, on the clock it is given; an error it throws is recorded as the
///     sequence failing (`^`) at once.
@discardableResult
public func expectMarbles<Recorded: AsyncSequence & SendableMetatype>(
  _ expected: String, step: Duration = .seconds(1), until horizon: Duration? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ build: @escaping @Sendable (TestClock) throws -> Recorded
) async -> MarbleComparison? {
  guard let marbles = expectedMarbles(expected, sourceLocation: sourceLocation) else { return nil }
  let comparison = await compare(marbles, step: step, until: horizon, order: nil, build)
  if !comparison.holds {
    Issue.record(Comment(rawValue: comparison.description), sourceLocation: sourceLocation)
  }
  return comparison
}

/// The expected diagram read, or nil when it is malformed (recorded as an issue).
func expectedMarbles(_ expected: String, sourceLocation: SourceLocation) -> Marbles? {
  do {
    return try Marbles(expected)
  } catch {
    Issue.record("\(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// Records the sequence as `expectMarbles` does (in `order`, when one is given) and compares it
/// with `marbles`.
func compare<Recorded: AsyncSequence & SendableMetatype>(
  _ marbles: Marbles, step: Duration, until horizon: Duration?, order: MarbleOrder?,
  _ build: @escaping @Sendable (TestClock) throws -> Recorded
) async -> MarbleComparison {
  // A `;` at step N is where the expectation cancels the sequence: just before that step's
  // events, as swift-async-algorithms' validation cancels before it moves its clock there.
  let cancelStep = marbles.reachable.events.first { $0.event == .cancelled }?.step
  var actual: Marbles
  if horizon == nil, let cancelStep {
    let recorded = await Marbles.record(
      step: step, until: step * cancelStep - .nanoseconds(1), markingCancellation: false, pacing: marbles.requests,
      order: order, build)
    actual = recorded
    if !recorded.events.contains(where: { $0.event.isEnd }) {
      actual = Marbles(events: recorded.events + [(cancelStep, .cancelled)], length: cancelStep)
    }
  } else {
    actual = await Marbles.record(
      step: step, until: horizon, markingCancellation: cancelStep != nil, pacing: marbles.requests, order: order,
      build)
  }
  return MarbleComparison(expected: marbles.reachable, actual: actual)
}

extension Marbles {
  /// When swift-async-algorithms' test consumer asks for each element, in steps: at 0, then at
  /// each expected event's step, a `,` moving the latest request one step past itself (AA's
  /// `activeTicks`). Empty when the diagram has no `,`: the consumer then asks as soon as it has
  /// an element, which draws the same diagram whenever the expected one holds.
  var requests: [Int] {
    guard !delays.isEmpty else { return [] }
    var requests = [0]
    var delays = self.delays[...]
    for step in 0...length {
      requests += Array(repeating: step, count: events.count { $0.step == step })
      while delays.first == step {
        delays.removeFirst()
        requests[requests.count - 1] = step + 1
      }
    }
    return requests
  }
}
