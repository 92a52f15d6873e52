import DequeModule
import Locking
import Platform
import TraceFormat

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
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
    /// Nanoseconds since the recorder was made.
    let time: Int64
    let lane: Int
    /// The lane's name, by its number in `Names`.
    let name: Int
    let kind: TraceFile.EventKind
    /// For an ask: the runtime's id of the task that asked.
    var task: UInt64? = nil
  }

  /// The names of lanes, each kept once. Names no running iteration and no kept event has are let
  /// go of now and then (when they are more than twice those in use), so a flight recorder over a
  /// sequence iterated for ever under new names holds about as many names as it keeps events.
  private struct Names {
    private var byNumber: [Int: String] = [:]
    private var numbers: [String: Int] = [:]
    private var next = 0

    /// `name`'s number.
    mutating func number(of name: String) -> Int {
      if let known = numbers[name] { return known }
      next += 1
      (numbers[name], byNumber[next]) = (next, name)
      return next
    }

    /// The name numbered `number`, while it is kept.
    subscript(number: Int) -> String? { byNumber[number] }

    var count: Int { byNumber.count }

    /// Keeps only the names numbered in `used`.
    mutating func keepOnly(_ used: Set<Int>) {
      byNumber = byNumber.filter { used.contains($0.key) }
      numbers = numbers.filter { used.contains($0.value) }
    }
  }

  private struct State {
    var lanes = 0
    var names = Names()
    /// The name of each iteration running now, by lane.
    var running: [Int: Int] = [:]
    var events: Deque<Recorded> = []
    var dropped = 0
    var leftOut = 0

    /// A new lane named `name`, running.
    mutating func startLane(named name: String) -> (lane: Int, name: Int) {
      lanes += 1
      let number = names.number(of: name)
      running[lanes] = number
      if names.count > 2 * (events.count + running.count) + 16 {
        names.keepOnly(Set(running.values).union(events.map(\.name)))
      }
      return (lanes, number)
    }
  }

  /// Nanoseconds since the recorder was made.
  private let now: @Sendable () -> Int64
  private let virtualClock: Bool
  private let limit: Int
  private let keepsLast: Bool
  private let state = Locked(State())

  /// A recorder that stamps events with `clock`'s time since the recorder was made. A flight
  /// recorder's `count` must be at least 1 (a programmer's error otherwise, as an array's
  /// negative count).
  public init<C: Clock>(clock: C, keeping: Keeping = .all) where C.Duration == Duration {
    #if os(Linux)
      // The system's clocks read directly, as the runtime reads them for these two (a probe reads
      // the time twice an element; through the `Clock` it also converts to a `Duration`).
      if clock is ContinuousClock || clock is SuspendingClock {
        let id = clock is ContinuousClock ? CLOCK_BOOTTIME : CLOCK_MONOTONIC
        let start = Self.nanoseconds(of: id)
        now = { Self.nanoseconds(of: id) - start }
      } else {
        let start = clock.now
        now = { start.duration(to: clock.now).wholeNanoseconds }
      }
    #else
      let start = clock.now
      now = { start.duration(to: clock.now).wholeNanoseconds }
    #endif
    virtualClock = !(clock is ContinuousClock || clock is SuspendingClock)
    switch keeping {
    case .all:
      (limit, keepsLast) = (Self.mostEvents, false)
    case .last(let count):
      precondition(count > 0, "ProbeRecorder(keeping: .last(\(count))): keep at least 1 event")
      (limit, keepsLast) = (min(count, Self.mostEvents), true)
    }
  }

  /// A new lane named `name`: its number, and its name's.
  @usableFromInline
  func lane(named name: String) -> (lane: Int, name: Int) {
    state.withLock { $0.startLane(named: name) }
  }

  /// The iteration of lane `lane` went: its name is kept only while kept events have it.
  @usableFromInline
  func laneEnded(_ lane: Int) {
    state.withLock { _ = $0.running.removeValue(forKey: lane) }
  }

  /// Records that lane `lane` (named `name`) was asked for an element, now, by the task running.
  @usableFromInline
  func recordAsk(lane: Int, name: Int) {
    // Which task asks is read before the lock (it holds it no longer than it must).
    record(.asked, lane: lane, name: name, task: currentTaskID())
  }

  /// Records what lane `lane` (named `name`) did, now.
  @usableFromInline
  func record(_ kind: TraceFile.EventKind, lane: Int, name: Int, task: UInt64? = nil) {
    // The time is read under the lock: events from many tasks are kept in the order of their times.
    state.withLock { state in
      let event = Recorded(time: now(), lane: lane, name: name, kind: kind, task: task)
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

  #if os(Linux)
    /// What the system's clock `id` says now, in nanoseconds.
    private static func nanoseconds(of id: clockid_t) -> Int64 {
      var now = timespec()
      clock_gettime(id, &now)
      return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
  #endif

  /// `text` cut at `longestDescription` characters, its last an ellipsis.
  @inlinable
  static func cut(_ text: String) -> String {
    // At most as many characters as UTF-8 bytes: most descriptions are not counted at all.
    text.utf8.count <= longestDescription || text.count <= longestDescription
      ? text : String(text.prefix(longestDescription - 1)) + "…"
  }

  /// How many lane names the recorder holds now.
  var namesHeld: Int { state.withLock { $0.names.count } }

  /// The trace as pipesh saves one: a header line naming `program` and the lanes, then an event a
  /// line. The lanes are those of the kept events, numbered from 1 in the order they were made.
  public func trace(program: String = ProbeRecorder.programName) -> String {
    // The events are copied out under the lock into storage of their own: a Deque shared with the
    // recorder would be read here while a recording task, finding it unique again once this copy
    // goes, writes it in place, with nothing ordering the two (ThreadSanitizer reports it).
    // The names of kept events are kept; each lane's is looked up under the lock too.
    let (events, labelOfLane, dropped) = state.withLock { state in
      let events = Array(state.events)
      var labelOfLane: [Int: String] = [:]
      for event in events where labelOfLane[event.lane] == nil { labelOfLane[event.lane] = state.names[event.name] }
      return (events, labelOfLane, state.dropped)
    }
    let lanes = labelOfLane.sorted { $0.key < $1.key }
    let numbered = Dictionary(
      uniqueKeysWithValues: lanes.enumerated().map { ($1.key, (number: $0 + 1, label: $1.value)) })
    var lines = [
      TraceFile.header(
        pipeline: "probes of \(program)", virtualClock: virtualClock, labels: lanes.map(\.value), dropped: dropped)
    ]
    // Tasks numbered from 1 in the order their first kept ask came: the same in every run of a
    // program whose tasks run in the same order (the runtime's ids count every task of the process).
    var tasks: [UInt64: Int] = [:]
    for event in events {
      guard let lane = numbered[event.lane] else { continue }
      let task = event.task.map { id in
        if let number = tasks[id] { return number }
        tasks[id] = tasks.count + 1
        return tasks.count
      }
      lines.append(
        TraceFile.node(
          time: .nanoseconds(event.time), job: 1, node: lane.number, label: lane.label, task: task, event.kind))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// How many events were recorded and not kept: dropped from the front by a flight recorder, or
  /// left out past `mostEvents`.
  public var notKept: Int {
    state.withLock { $0.dropped + $0.leftOut }
  }

  /// Writes `trace()` to `path`, replacing the file at once, readable and writable by you alone
  /// (mode 0600, as `pipesh attach`'s `save`): a trace holds what the program's values say.
  public func write(toFile path: String) throws {
    let bytes = Array(trace().utf8)
    // A name of its own beside the file (mkstemp: mode 0600, made anew), so that writes at once
    // (two threads, two processes) never share one; closed in a child the program starts.
    var template = Array((path + ".XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
    guard fd >= 0 else { throw ProbeWriteError(path: path, errno: errno) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Platform.write(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let failure = ProbeWriteError(path: path, errno: errno)
        _ = Platform.close(fd)
        unlink(temporary)
        throw failure
      }
      written += count
    }
    guard Platform.close(fd) == 0, rename(temporary, path) == 0 else {
      let failure = ProbeWriteError(path: path, errno: errno)
      unlink(temporary)
      throw failure
    }
  }

  /// This process's name, as the trace's heading says it.
  public static var programName: String {
    CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "a program"
  }
}

/// The runtime's id of the task running now (what `UnownedJob`'s description prints), or nil
/// outside a task. Read from the runtime itself: PipeshProbe replaces none of its entry points.
private func currentTaskID() -> UInt64? {
  // An UnsafeCurrentTask is the task's pointer (the runtime's task is a job), read as one without
  // binding it: a bound copy retains and releases the task (a tenth of what recording an ask cost).
  withUnsafeCurrentTask { task in
    unsafeBitCast(task, to: UnsafeMutableRawPointer?.self).flatMap { job in
      let id = swiftTaskGetJobTaskID(job)
      return id == 0 ? nil : id
    }
  }
}

@_silgen_name("swift_task_getJobTaskId")
private func swiftTaskGetJobTaskID(_ job: UnsafeMutableRawPointer) -> UInt64

/// `write(toFile:)` could not write the trace: where, and the system's reason.
public struct ProbeWriteError: Error, CustomStringConvertible {
  public let description: String

  init(path: String, errno code: Int32) {
    description = "cannot write the trace to \(path): \(String(cString: strerror(code)))"
  }
}
