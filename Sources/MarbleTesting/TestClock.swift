/// A clock of virtual time for marble tests: it starts at zero when a run starts and moves only
/// when every task of the run waits, straight to the earliest deadline anyone sleeps until. Its
/// `Duration` is `Swift.Duration`, so swift-async-algorithms' operators take it:
///
/// ```swift
/// let marbles = await Marbles.record { clock in
///   MarbleInput("abcd----e---f-g----|", clock: clock).debounce(for: .seconds(3), clock: clock)
/// }
/// ```
///
/// Sleeping on it means anything only inside a run (`Marbles.record`, `expectMarbles`,
/// `TestClock.run`); outside one a sleep throws `CancellationError` at once.
public struct TestClock: Clock, Sendable {
  /// A point of virtual time: how long after the run's start.
  public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Time since the run started.
    public var offset: Duration

    /// The instant `offset` after the run's start.
    public init(offset: Duration) { self.offset = offset }

    /// The run's start.
    public static let zero = Instant(offset: .zero)

    /// This instant moved by `duration`.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `left` comes before `right`.
    public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }

    /// The offset, as `Duration` prints it.
    public var description: String { offset.description }
  }

  /// The clock. Every `TestClock` reads the same virtual time: that of the current run.
  public init() {}

  /// The current virtual time.
  public var now: Instant { Instant(offset: TestDriver.shared.now) }

  /// Zero: virtual time has no granularity.
  public var minimumResolution: Duration { .zero }

  /// Suspends until virtual time reaches `deadline` (at once if it has); throws
  /// `CancellationError` if the task is cancelled first, the run ends first, or no run is under way.
  /// `tolerance` is ignored: the clock wakes sleepers exactly at their deadline.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await TestDriver.shared.sleep(until: deadline.offset)
  }

  /// Runs `body` on the driver, with virtual time starting at zero, and returns what it returns:
  /// for tests that check something other than a diagram. Runs are serialized within the process
  /// (see `Marbles.record`). If every task of the run waits and none sleeps on the clock, the body's
  /// task is cancelled.
  public static func run<T: Sendable>(_ body: @escaping @Sendable (TestClock) async -> T) async -> T? {
    let result = Box<T>()
    await TestDriver.shared.run {
      let value = await body(TestClock())
      result.set(value)
    }
    return result.value
  }
}
