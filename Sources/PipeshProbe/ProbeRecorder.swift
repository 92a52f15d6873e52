import DequeModule
import Locking
import TraceFormat

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where probes record what their sequences do: when the consumer asks (`next()`), each element
/// with its time and description, and each end. Safe to use from many tasks at once; recording
/// takes a lock for a moment and never waits for anything else. `write(toFile:)` saves it as a
/// pipesh trace, which `pipesh`'s `draw "F.trace"` and `replay "F.trace"` read, a probe being a
/// lane.
///
///     let recorder = ProbeRecorder(clock: ContinuousClock(), keeping: .last(10_000))
///     for await query in keystrokes.probe("keys", into: recorder).debounce(for: .milliseconds(300)) { … }
///     try recorder.write(toFile: "search.trace")
public final class ProbeRecorder: Sendable {
  /// Which events a recorder keeps.
  public enum Keeping: Sendable, Equatable {
    /// Every event, up to the most a trace file holds (`ProbeRecorder.mostEvents`); those after it
    /// are counted, not kept.
    case all
    /// The last `count` events (a flight recorder, at most `ProbeRecorder.mostEvents`): each new
    /// one past it drops the oldest, and the trace says how many were dropped.
    case last(Int)
  }

  /// The most events a recorder keeps: the most a pipesh trace file holds.
  public static let mostEvents = 1_000_000
  /// The longest description of an element that is kept; a longer one is cut and ends in `…`.
  public static let longestDescription = 200

  private struct Recorded {
    let time: Duration
    let lane: Int
    let kind: TraceFile.EventKind
  }

  private struct State {
    var labels: [String] = []
    var events: Deque<Recorded> = []
    var dropped = 0
    var leftOut = 0
  }

  private let now: @Sendable () -> Duration
  private let virtualClock: Bool
  private let limit: Int
  private let keepsLast: Bool
  private let state = Locked(State())

  /// A recorder that stamps events with `clock`'s time since the recorder was made. A flight
  /// recorder's `count` must be at least 1 (a programmer's error otherwise, as an array's
  /// negative count).
  public init<C: Clock>(clock: C, keeping: Keeping = .all) where C.Duration == Duration {
    let start = clock.now
    now = { start.duration(to: clock.now) }
    virtualClock = !(clock is ContinuousClock || clock is SuspendingClock)
    switch keeping {
    case .all:
      (limit, keepsLast) = (Self.mostEvents, false)
    case .last(let count):
      precondition(count > 0, "ProbeRecorder(keeping: .last(\(count))): keep at least 1 event")
      (limit, keepsLast) = (min(count, Self.mostEvents), true)
    }
  }

  /// A new lane named `name`: its number.
  @usableFromInline
  func lane(named name: String) -> Int {
    state.withLock { state in
      state.labels.append(name)
      return state.labels.count
    }
  }

  /// Records what lane `lane` did, now.
  @usableFromInline
  func record(_ kind: TraceFile.EventKind, lane: Int) {
    // The time is read under the lock: events from many tasks are kept in the order of their times.
    state.withLock { state in
      let event = Recorded(time: now(), lane: lane, kind: kind)
      if state.events.count < limit {
        state.events.append(event)
      } else if keepsLast {
        state.events.removeFirst()
        state.events.append(event)
        state.dropped += 1
      } else {
        state.leftOut += 1
      }
    }
  }

  /// The trace as pipesh saves one: a header line naming `program` and the lanes, then an event a
  /// line, lanes in the order they were made.
  public func trace(program: String = ProbeRecorder.programName) -> String {
    let (labels, events, dropped) = state.withLock { ($0.labels, $0.events, $0.dropped) }
    var lines = [
      TraceFile.header(
        pipeline: "probes of \(program)", virtualClock: virtualClock, labels: labels, dropped: dropped)
    ]
    for event in events {
      lines.append(
        TraceFile.node(time: event.time, job: 1, node: event.lane, label: labels[event.lane - 1], event.kind))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// How many events were recorded and not kept: dropped from the front by a flight recorder, or
  /// left out past `mostEvents`.
  public var notKept: Int {
    state.withLock { $0.dropped + $0.leftOut }
  }

  /// Writes `trace()` to `path`, replacing the file.
  public func write(toFile path: String) throws {
    try Data(trace().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  }

  /// This process's name, as the trace's heading says it.
  public static var programName: String {
    CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "a program"
  }
}
