import OpenCombine

/// An OpenCombine `Scheduler` on virtual time: actions wait in a queue ordered by their time (and,
/// at one instant, by when they were scheduled), and `run(until:)` performs them one by one, moving
/// `now` to each action's time. Nothing runs on another thread: the whole Combine side of `compare`
/// happens inside `run(until:)`, so its output is the same on every run and in every build.
///
/// Time starts at zero, as a job's does on the virtual clock, so a diagram column means the same
/// instant on both sides of `compare`.
public final class VirtualScheduler: Scheduler {
  /// An instant: nanoseconds since the scheduler's start.
  public struct SchedulerTimeType: Strideable, Hashable, Sendable {
    public let nanoseconds: Int64

    public init(nanoseconds: Int64) {
      self.nanoseconds = nanoseconds
    }

    public func distance(to other: Self) -> Stride {
      Stride(nanoseconds: other.nanoseconds.saturatingSubtracting(nanoseconds))
    }
    public func advanced(by stride: Stride) -> Self {
      Self(nanoseconds: nanoseconds.saturatingAdding(stride.nanoseconds))
    }

    /// The time as a `Duration` since the start, for the diagram recorder.
    public var duration: Duration { .nanoseconds(nanoseconds) }

    /// A span of virtual time; negative when it goes back.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Sendable {
      public var nanoseconds: Int64

      public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
      }

      public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(
          nanoseconds: seconds.saturatingMultiplied(by: 1_000_000_000).saturatingAdding(attoseconds / 1_000_000_000))
      }

      public init(integerLiteral value: Int64) {
        self.init(nanoseconds: value.saturatingMultiplied(by: 1_000_000_000))
      }

      public init?<Source: BinaryInteger>(exactly source: Source) {
        guard let value = Int64(exactly: source) else { return nil }
        self.init(nanoseconds: value)
      }

      public var magnitude: UInt64 { nanoseconds.magnitude }

      public static func seconds(_ s: Int) -> Self {
        Self(nanoseconds: Int64(s).saturatingMultiplied(by: 1_000_000_000))
      }
      public static func seconds(_ s: Double) -> Self {
        Self(nanoseconds: Int64(exactly: (s * 1e9).rounded()) ?? (s < 0 ? .min : .max))
      }
      public static func milliseconds(_ ms: Int) -> Self {
        Self(nanoseconds: Int64(ms).saturatingMultiplied(by: 1_000_000))
      }
      public static func microseconds(_ us: Int) -> Self {
        Self(nanoseconds: Int64(us).saturatingMultiplied(by: 1_000))
      }
      public static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: Int64(ns)) }

      public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
      public static func + (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.nanoseconds.saturatingAdding(rhs.nanoseconds))
      }
      public static func - (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.nanoseconds.saturatingSubtracting(rhs.nanoseconds))
      }
      public static func * (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.nanoseconds.saturatingMultiplied(by: rhs.nanoseconds))
      }
      public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
      public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
      public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
    }
  }

  public typealias SchedulerOptions = Never

  /// One scheduled action; `order` keeps actions of one instant in the order they were scheduled
  /// (negated where ties are reversed).
  private struct Entry {
    let time: SchedulerTimeType
    let order: Int
    let action: () -> Void
  }

  /// Cancels a repeating action: the next time it comes due it is dropped instead of run.
  private final class Repetition: Cancellable {
    var isCancelled = false
    func cancel() { isCancelled = true }
  }

  public private(set) var now = SchedulerTimeType(nanoseconds: 0)
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }
  private var queue: [Entry] = []
  private var scheduled = 0
  /// Instants in this range run the actions of one instant last-scheduled first: `compare` asks
  /// whether a difference comes only from the order of events at one instant.
  private let reversingTies: Range<SchedulerTimeType>?
  /// The first instant at which actions of one instant ran in reversed order.
  public private(set) var firstReversedTie: SchedulerTimeType?

  public init(reversingTiesIn reversingTies: Range<SchedulerTimeType>? = nil) {
    self.reversingTies = reversingTies
  }

  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    enqueue(at: now, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    enqueue(at: date, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let repetition = Repetition()
    // A zero or negative interval would repeat at one instant forever: Combine's schedulers
    // treat it as the smallest step, and so does this one.
    let step = Swift.max(interval, .nanoseconds(1))
    func repeating(at time: SchedulerTimeType) {
      enqueue(at: time) {
        guard !repetition.isCancelled else { return }
        action()
        repeating(at: time.advanced(by: step))
      }
    }
    repeating(at: date)
    return repetition
  }

  private func enqueue(at time: SchedulerTimeType, _ action: @escaping () -> Void) {
    scheduled += 1
    let time = Swift.max(time, now)
    let reversed = reversingTies?.contains(time) ?? false
    let entry = Entry(time: time, order: reversed ? -scheduled : scheduled, action: action)
    // Binary search for the first entry that comes after this one.
    var low = 0
    var high = queue.count
    while low < high {
      let middle = (low + high) / 2
      if (queue[middle].time, queue[middle].order) < (entry.time, entry.order) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    queue.insert(entry, at: low)
  }

  /// Performs the queued actions, earliest first, until none is left, the next one comes after
  /// `limit`, or `proceed` (asked before each action) says no more; `now` ends at `limit`, or, when
  /// `proceed` stopped it, at the last action's time.
  public func run(until limit: SchedulerTimeType, while proceed: () -> Bool = { true }) {
    while let first = queue.first, first.time <= limit {
      guard proceed() else { return }
      queue.removeFirst()
      if firstReversedTie == nil, reversingTies?.contains(first.time) ?? false, queue.first?.time == first.time {
        firstReversedTie = first.time
      }
      now = first.time
      first.action()
    }
    // Nothing more is due before the limit: time runs on to it (what is still open ends there,
    // as the AA side's job is cancelled at its horizon).
    now = max(now, limit)
  }

  /// Drops every queued action (they hold the publishers' state).
  public func reset() {
    queue.removeAll()
  }
}

/// Virtual time past 2^63 ns (about 292 years, which `timer 1e9` passes after 10 ticks) stands at
/// the largest or smallest instant instead of overflowing and trapping.
extension Int64 {
  fileprivate func saturatingAdding(_ other: Int64) -> Int64 {
    let (result, overflow) = addingReportingOverflow(other)
    return overflow ? (other < 0 ? .min : .max) : result
  }

  fileprivate func saturatingSubtracting(_ other: Int64) -> Int64 {
    let (result, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : result
  }

  fileprivate func saturatingMultiplied(by other: Int64) -> Int64 {
    let (result, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? ((self < 0) == (other < 0) ? .max : .min) : result
  }
}
