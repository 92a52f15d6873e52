import Dispatch

/// A point in a job's time: the offset from a fixed origin.
public struct PipeInstant: InstantProtocol, Sendable {
  public var offset: Duration

  public init(offset: Duration) {
    self.offset = min(max(offset, .zero - Self.farthest), Self.farthest)
  }

  /// The farthest a job's time goes (Int64.max seconds, about 2.9e11 years): an instant past it
  /// stands at it. Offsets kept within it add and subtract within `Duration`'s range, so no deadline
  /// an operator works out (a timer's next tick after a billion ticks of 1e9 s) overflows and traps.
  public static let farthest = Duration.seconds(Int64.max)

  public func advanced(by duration: Duration) -> PipeInstant {
    let duration = min(max(duration, .zero - Self.farthest), Self.farthest)
    return PipeInstant(offset: min(max(offset + duration, .zero - Self.farthest), Self.farthest))
  }

  public func duration(to other: PipeInstant) -> Duration { other.offset - offset }

  public static func < (lhs: PipeInstant, rhs: PipeInstant) -> Bool { lhs.offset < rhs.offset }
}

/// The clock a job runs on: the real `ContinuousClock`, or a job's virtual clock. One concrete
/// type for both, so every time-based operator is compiled once.
public struct PipeClock: Clock, Sendable {
  public typealias Instant = PipeInstant

  package enum Kind: Sendable {
    case real(ContinuousClock.Instant)
    case virtual(VirtualDriver)
  }

  /// The virtual clock's driver, or nil for the real clock.
  public let driver: VirtualDriver?
  /// The real clock's origin (unused on a virtual clock). Two stored fields, not the `Kind` enum:
  /// a clock is copied and asked for the time at every element of a timed operator, and a
  /// multi-payload enum is copied through an outlined function that asks for its metadata.
  private let origin: ContinuousClock.Instant

  package init(kind: Kind) {
    switch kind {
    case .real(let origin): (self.driver, self.origin) = (nil, origin)
    case .virtual(let driver): (self.driver, self.origin) = (driver, .now)
    }
  }

  public var now: PipeInstant {
    if let driver { return driver.now }
    return PipeInstant(offset: ContinuousClock.now - origin)
  }

  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Waits until `deadline` and returns only then, even when the calling task is cancelled
  /// meanwhile: a wait cancellation does not reach (`work … cooperative: false`). No task is made
  /// for it: the real clock's wait is a timer on a dispatch queue that resumes the caller.
  public func sleepIgnoringCancellation(until deadline: PipeInstant) async {
    if let driver { return await driver.sleepIgnoringCancellation(until: deadline) }
    let remaining = (origin + deadline.offset) - ContinuousClock.now
    guard remaining > .zero else { return }
    // At most a century: a deadline past it (`work 1e12`) waits as long as anyone will.
    let seconds = min(remaining.components.seconds, 3_155_760_000)
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(remaining.components.attoseconds / 1_000_000_000)
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { continuation.resume() }
    }
  }

  public func sleep(until deadline: PipeInstant, tolerance: Duration?) async throws {
    if let driver { return try await driver.sleep(until: deadline) }
    try await ContinuousClock().sleep(until: origin + deadline.offset, tolerance: tolerance)
  }
}
