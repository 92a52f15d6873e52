/// An input sequence written as a diagram in swift-async-algorithms' notation, on a `TestClock`:
/// the value of step `N` is delivered at `N * step`, or when it is asked for if that is later;
/// `|` finishes it, `^` throws `MarbleInputError`, `;` finishes it (a cancelled input produces
/// nothing more); without an end marker it finishes right after its last event. Events written
/// after an end never happen. `,` (a consumer's delay) means nothing to an input and is ignored.
///
/// ```swift
/// let clock = TestClock()
/// let input = try MarbleInput("a--b-|", clock: clock)  // "a" at 1s, "b" at 4s, ends at 6s
/// ```
public struct MarbleInput: AsyncSequence, Sendable {
  /// A value of the diagram, as written (`'foo'` is "foo").
  public typealias Element = String

  private let events: [(step: Int, event: Marbles.Event)]
  private let step: Duration
  private let clock: TestClock

  /// The input `diagram` describes, one character per `step` of `clock`'s time; a malformed
  /// diagram throws where and what.
  public init(_ diagram: String, step: Duration = .seconds(1), clock: TestClock) throws(MarbleSyntaxError) {
    self.init(try Marbles(diagram), step: step, clock: clock)
  }

  /// The input a parsed diagram describes.
  public init(_ marbles: Marbles, step: Duration = .seconds(1), clock: TestClock) {
    self.events = marbles.reachable.events
    self.step = step
    self.clock = clock
  }

  /// Makes an iterator: each iterator replays the diagram from its start (at the instants
  /// written, measured from the run's start).
  public func makeAsyncIterator() -> Iterator {
    Iterator(events: events, step: step, clock: clock)
  }

  /// Delivers the diagram's events at their instants.
  public struct Iterator: AsyncIteratorProtocol {
    let events: [(step: Int, event: Marbles.Event)]
    let step: Duration
    let clock: TestClock
    var index = 0

    /// The next value, at its instant; nil once the diagram has ended.
    public mutating func next() async throws -> String? {
      guard index < events.count else { return nil }
      let (at, event) = events[index]
      try await clock.sleep(until: .zero.advanced(by: step * at))
      index += 1
      switch event {
      case .value(let value): return value
      case .finished, .cancelled:
        index = events.count
        return nil
      case .failed:
        index = events.count
        throw MarbleInputError(step: at)
      }
    }
  }
}

/// What a `MarbleInput` throws at its `^`.
public struct MarbleInputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The step of the `^`.
  public let step: Int

  /// `the input failed at step 5 (^)`.
  public var description: String { "the input failed at step \(step) (^)" }
}
