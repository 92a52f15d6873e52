import Foundation
import Testing

/// The same virtual-time script gives byte-identical output on every run.
@Suite("determinism")
struct DeterminismTests {
  static let script = """
    merge(timer 1 | take 5, timer 1 | map { $0 * 10 } | take 5, marble "ab-cd|" | map { 7 }) | print time: true
    zip(timer 1 | take 4, marble "a-b--c|") | collect
    marble "a-bc---d-e|" | debounce 1.5 | diagram
    let t = timer 1 | take 3 | share
    t | map { -$0 } &
    t | map { $0 * 100 } &
    combineLatest(timer 1 | take 3, timer 1.5 | take 3) | diagram
    wait
    """

  @Test func fiftyRunsPrintTheSameBytes() throws {
    let first = try Pipesh.run(["--virtual-time", "-c", Self.script])
    #expect(first.status == 0)
    #expect(first.stdout.split(separator: "\n").count == 23)
    for _ in 1..<50 {
      let again = try Pipesh.run(["--virtual-time", "-c", Self.script])
      #expect(again.stdout == first.stdout)
      #expect(again.stderr == first.stderr)
    }
  }
}

extension DeterminismTests {
  /// pipesh runs itself with deterministic hashing whatever the environment says about it.
  @Test func hashingSettingsInTheEnvironmentChangeNothing() throws {
    let first = try Pipesh.run(["--virtual-time", "-c", Self.script])
    for setting in ["0", "1", "", "yes"] {
      for _ in 1...5 {
        let again = try Pipesh.run(
          ["--virtual-time", "-c", Self.script], environment: ["SWIFT_DETERMINISTIC_HASHING": setting])
        #expect(again.stdout == first.stdout, "SWIFT_DETERMINISTIC_HASHING=\(setting)")
      }
    }
  }
}

extension DeterminismTests {
  /// Scripts whose jobs start tasks of their own (buffer, delay), share a channel and are cancelled
  /// while others run.
  static let underLoad = [
    """
    channel c1 of: Int | buffer 1 | print &
    channel c1 of: Int | delay 2 | count &
    send c1 3 0
    close c1
    cancel 2
    stats
    wait
    """,
    """
    channel c of: Int | buffer 2 | map { $0 * 10 } | print &
    channel c of: Int | delay 1 | tap "d" | drain &
    timer 0.5 | take 6 | into c &
    sleep 1.2
    cancel 2
    stats
    wait 3
    close c
    wait
    stats
    """,
  ]

  /// Virtual time prints the same bytes when four runs at a time compete for the two cores: each
  /// script 40 times.
  @Test(arguments: underLoad)
  func sameBytesUnderLoad(_ script: String) throws {
    let first = try Pipesh.run(["--virtual-time", "-c", script])
    #expect(first.status == 0 && !first.stdout.isEmpty, "\(first.stderr)")
    // NSLock, not Synchronization.Mutex: ThreadSanitizer cannot see Mutex's futex waits, and
    // reported the contended inserts below as races.
    let outputs = Outputs()
    let group = DispatchGroup()
    for _ in 1...4 {
      group.enter()
      Thread {
        for _ in 1...10 {
          let run = try? Pipesh.run(["--virtual-time", "-c", script])
          let output = run.map { $0.stdout + $0.stderr } ?? "did not run"
          outputs.insert(output)
        }
        group.leave()
      }.start()
    }
    group.wait()
    let distinct = outputs.all
    #expect(distinct == [first.stdout + first.stderr], "\(distinct.count) different outputs")
  }

  /// The outputs seen, from several threads.
  final class Outputs: @unchecked Sendable {
    // @unchecked: `seen` is only touched under `lock`.
    private let lock = NSLock()
    private var seen: Set<String> = []

    func insert(_ output: String) { lock.withLock { _ = seen.insert(output) } }

    var all: Set<String> { lock.withLock { seen } }
  }
}

/// Starting and cancelling 1,000 background jobs in the shell leaves nothing of them running.
@Suite("lifetimes")
struct LifetimeTests {
  @Test func thousandJobsCancelledLeaveStatsAtZero() throws {
    let script = String(repeating: "timer 1 | map { $0 + 1 } | drain &\n", count: 1000) + "cancel all\nstats\njobs\n"
    let result = try Pipesh.run(["-c", script])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "jobs: 0 running · tasks: 0 live · nodes: 0 live")
    #expect(lines.dropFirst(2).allSatisfy { $0.contains("cancelled") })
    #expect(lines.count == 1002)
  }
}

/// A finishing operator (`take`, `first`, `takeWhile`, `zip`'s shorter side) after an operator
/// that starts a task of its own or waits on the clock ends the job, and the job lets go of
/// every node: `stats` right after says zero, on both clocks.
@Suite("finishing operators end their jobs")
struct FinishingTests {
  /// The pipeline, and what it prints on the virtual clock.
  static let cases: [(String, String)] = [
    ("range 1 100 | buffer 3 | take 1", "1"),
    ("range 1 100 | buffer 3 policy: newest | first", "1"),
    ("timer 0.01 | buffer unbounded | take 2 | count", "2"),
    ("from 1 2 3 | share | take 2 | count", "2"),
    ("timer 0.01 | share | first", "0"),
    ("timer 0.02 | delay 0.02 | take 2 | count", "2"),
    ("timer 0.02 | debounce 0.01 | first", "0"),
    ("timer 0.01 | throttle 0.02 | take 2 | count", "2"),
    ("merge(timer 0.01, timer 0.015) | take 3 | count", "3"),
    ("combineLatest(timer 0.01, timer 0.015) | take 3 | count", "3"),
    ("zip(timer 0.01, from 1 2) | count", "2"),
    ("timer 0.01 | chunks 2 every: 0.05 | first", "[0, 1]"),
    ("timer 0.01 | chunked 0.035 | first", "[0, 1, 2]"),
    ("timer 0.01 | timeout 1 | take 2 | count", "2"),
    ("timer 0.01 | buffer 2 | takeWhile { $0 < 2 } | count", "2"),
    ("let t = timer 0.01 | share\nt | take 2 | count", "2"),
    // swift-async-algorithms 1.1.4's share task once waited forever here, about once in 50 runs.
    ("range 1 100 | filter { $0 % 2 == 0 } | share | count", "50"),
    ("zip(range 1 50 | share, range 1 10) | count", "10"),
    ("merge(range 1 10 | share, timer 0.02 | share) | take 12 | count", "12"),
    ("combineLatest(timer 0.01 | share, from 1 2 3) | takeWhile { $0.0 < 3 } | count", "3"),
    ("zip(from 1 2, range -3 7 | debounce 0) | count", "2"),
  ]

  static let stats = "jobs: 0 running · tasks: 0 live · nodes: 0 live"

  /// What `stats` says after `pipeline`: nothing alive, but the hot part of a `let … | share`
  /// fragment (its timer and share nodes), which the session keeps, named, for later consumers.
  static func stats(after pipeline: String) -> String {
    guard pipeline.hasPrefix("let t = timer 0.01 | share") else { return stats }
    // The share's task, which iterates the timer for the fragment, is its too.
    return
      "jobs: 0 running · tasks: 1 live (task 2 in share fragment 't') · nodes: 2 live (2 in share fragment 't', kept for later consumers)"
  }

  /// `--stats` at the exit of a virtual-clock script counts the same in every run: the session's
  /// clock is shut down and its thread has ended (what its last tasks held let go of) before it
  /// counts. A share fragment's reader cancelled last used to leave 1 or 2 nodes, by the run.
  @Test func statsAtExitAreTheSameInEveryRun() throws {
    let script =
      "let t = timer 1 | share\nt | map { $0 } | drain &\nt | map { -$0 } | drain &\nsleep 2.5\ncancel 1\nsleep 2\ncancel 2"
    var counted: Set<String> = []
    for _ in 0..<12 {
      let result = try Pipesh.run(["--virtual-time", "--stats", "-c", script], limit: 60)
      #expect(result.status == 0)
      counted.insert(result.stderr)
    }
    #expect(counted == ["stats: tasks: 0 live · nodes: 1 live (1 in share fragment 't', kept for later consumers)\n"])
  }

  @Test("virtual clock", arguments: cases)
  func onTheVirtualClock(_ pipeline: String, _ printed: String) throws {
    let result = try Pipesh.run(["--virtual-time", "-c", pipeline + "\nstats"], limit: 60)
    #expect(!result.timedOut, "did not end")
    #expect(result.stdout == printed + "\n" + Self.stats(after: pipeline) + "\n")
    #expect(result.status == 0)
  }

  /// Under ThreadSanitizer the real-clock `share` cases are left out: swift-async-algorithms'
  /// share guards its state with `Synchronization.Mutex`, whose futex waits ThreadSanitizer cannot
  /// see, so it reports the share's own locked accesses as races (exit 66). They run in the debug
  /// and release passes; the virtual-clock cases (one thread) run under ThreadSanitizer too.
  static let underThreadSanitizer = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil

  @Test("real clock", arguments: cases.filter { !$0.0.contains("share") })
  func onTheRealClock(_ pipeline: String, _ printed: String) throws {
    try checkOnTheRealClock(pipeline)
  }

  @Test(
    "real clock, with share", .disabled(if: underThreadSanitizer, "ThreadSanitizer cannot see share's Mutex waits"),
    arguments: cases.filter { $0.0.contains("share") })
  func onTheRealClockWithShare(_ pipeline: String, _ printed: String) throws {
    try checkOnTheRealClock(pipeline)
  }

  func checkOnTheRealClock(_ pipeline: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try Pipesh.run(["-c", pipeline + "\nstats"], limit: 60)
    #expect(!result.timedOut, "did not end", sourceLocation: sourceLocation)
    // The real clock's values may differ by a tick; the end and the counts may not.
    #expect(
      result.stdout.split(separator: "\n").last.map(String.init) == Self.stats(after: pipeline),
      sourceLocation: sourceLocation)
    #expect(result.stdout.split(separator: "\n").count == 2, sourceLocation: sourceLocation)
    #expect(result.status == 0, sourceLocation: sourceLocation)
  }

  /// Background jobs with inline shares, cancelled while their share tasks are in any state:
  /// nothing of them is alive right after `cancel`, twenty times over, on both clocks.
  @Test("cancelled shares let go, virtual clock")
  func cancelledSharesLetGoOnTheVirtualClock() throws {
    try checkCancelledSharesLetGo(virtual: true)
  }

  @Test(
    "cancelled shares let go, real clock",
    .disabled(if: underThreadSanitizer, "ThreadSanitizer cannot see share's Mutex waits"))
  func cancelledSharesLetGoOnTheRealClock() throws {
    try checkCancelledSharesLetGo(virtual: false)
  }

  func checkCancelledSharesLetGo(virtual: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let round = """
      timer 0.001 | share | map { $0 } | drain &
      merge(timer 0.002 | share, range 1 1000 | share) | share | drain &
      zip(timer 0.001 | share, timer 0.003) | drain &
      cancel all
      stats
      """
    let result = try Pipesh.run(
      (virtual ? ["--virtual-time"] : []) + ["-c", Array(repeating: round, count: 20).joined(separator: "\n")],
      limit: 60)
    #expect(!result.timedOut, "did not end", sourceLocation: sourceLocation)
    #expect(result.stdout == String(repeating: Self.stats + "\n", count: 20), sourceLocation: sourceLocation)
    #expect(result.status == 0, sourceLocation: sourceLocation)
  }

  /// swift-async-algorithms 1.1.4's debounce, asked for an element by a task already cancelled
  /// (here: zip ending its longer side), once forgot its iteration task, which then waited forever
  /// and kept the job running; one after another, the job hung within a few runs.
  @Test("zip ends a debounce", arguments: [false, true])
  func zipEndsADebounce(virtual: Bool) throws {
    let round = "zip(from 1 2, range -3 7 | debounce 0) | count\nstats"
    let result = try Pipesh.run(
      (virtual ? ["--virtual-time"] : []) + ["-c", Array(repeating: round, count: 100).joined(separator: "\n")],
      limit: 60)
    #expect(!result.timedOut, "did not end")
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    if virtual {
      #expect(result.stdout == String(repeating: "2\n" + Self.stats + "\n", count: 100))
    } else {
      // On the real clock the range may come faster than the clock moves, and the debounce keep
      // only the last of them: one pair or two. Every job must have ended all the same.
      #expect(lines.count == 200)
      #expect(stride(from: 0, to: lines.count, by: 2).allSatisfy { ["1", "2"].contains(lines[$0]) })
      #expect(stride(from: 1, to: lines.count, by: 2).allSatisfy { lines[$0] == Self.stats })
    }
  }

  /// The task numbers a trace line names (`task 5 cancelled with its parent 4 (inferred)`).
  static func taskNumbers(in line: String) -> [Int] {
    guard let task = line.range(of: "  task ") else { return [] }
    return line[task.upperBound...].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
  }

  /// A trace line with the task numbers after `  task ` counted from `first`.
  static func renumbered(_ line: String, from first: Int) -> String {
    guard let task = line.range(of: "  task ") else { return line }
    var tail = ""
    var digits = ""
    for character in line[task.upperBound...] {
      if character.isNumber {
        digits.append(character)
        continue
      }
      if let number = Int(digits) { tail += "t\(number - first)" }
      digits = ""
      tail.append(character)
    }
    if let number = Int(digits) { tail += "t\(number - first)" }
    return line[..<task.upperBound] + tail
  }

  /// A traced merge on the virtual clock once deadlocked (the cancellation handler of a merge ran
  /// on another thread than the merge's code): thirty in a row, the same bytes each time.
  @Test func tracedMergesEndAndRepeat() throws {
    let one = "trace merge(timer 1 | take 2, timer 1.5 | take 2, from 9) | take 4"
    // Wide enough that no line is cut (task numbers grow a digit after the first jobs).
    let result = try Pipesh.run(
      ["--virtual-time", "-c", Array(repeating: one, count: 30).joined(separator: "\n")],
      environment: ["COLUMNS": "300"])
    #expect(!result.timedOut, "did not end")
    #expect(result.status == 0)
    let runs = result.stdout.components(separatedBy: "[1] ").count
    #expect(runs > 1)
    // Stamps count from the session's start: each job's are compared from its first one.
    let perJob = (1...30).map { id -> [String] in
      let lines = result.stdout.split(separator: "\n").filter { $0.contains(" [\(id)] ") }
      let stamps = lines.map { Double($0.dropFirst().prefix { $0 != "s" }) ?? -1 }
      // Task numbers count up through the session: each job's are compared from its own first.
      let first = lines.lazy.compactMap { Self.taskNumbers(in: String($0)).first }.first ?? 0
      return zip(lines, stamps).map { line, stamp in
        let rest = Self.renumbered(
          line.drop { $0 != " " }.replacingOccurrences(of: " [\(id)] ", with: " [N] "), from: first)
        return String(format: "+%.3fs", stamp - (stamps.first ?? 0)) + rest
      }
    }
    #expect(perJob.allSatisfy { $0 == perJob[0] && !$0.isEmpty })
    #expect(perJob[1].first?.hasPrefix("+0.000s") == true)
  }
}

/// Fusing synchronous stages into one node changes nothing `inspect`, `jobs` or the output show.
@Suite("fusion")
struct FusionTests {
  static let script = """
    range 1 10 | map { $0 * 2 } | filter { $0 % 3 == 0 } | take 2 | count
    inspect 1
    from 1 2 0 4 | map { 10 / $0 } | filter { $0 > 0 } | drain
    inspect 2
    range 1 20 | enumerated | dropWhile { $0.0 < 3 } | takeWhile { $0.1 < 9 } | compactMap { $0.0 > 4 ? $0.1 : nil } | collect
    inspect 3
    timer 1 | map { $0 + 1 } | filter { $0 % 2 == 0 } | take 3 | collect
    inspect 4
    range 1 5 | map { $0 } | drop 2 | drain
    jobs
    """

  @Test func fusedAndUnfusedReportTheSame() throws {
    let fused = try Pipesh.run(["--virtual-time", "-c", Self.script])
    let unfused = try Pipesh.run(["--virtual-time", "-c", Self.script], environment: ["PIPESH_FUSION": "off"])
    #expect(fused.stdout.contains("range 1 10              cancelled (downstream cancelled)"))
    #expect(fused.stdout == unfused.stdout)
    #expect(fused.stderr == unfused.stderr)
    #expect(fused.status == 1)
  }
}
