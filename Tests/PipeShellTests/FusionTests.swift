import Foundation
import Locking
import PipeShell
import PipeSyntax
import Testing

@testable import PipeRuntime

/// Fusing synchronous stages into one node changes nothing anyone can see: generated runs of every
/// fusible operator, 1 to 4 stages long, behind consumers that finish, fail, end early, lose a
/// sibling or are cancelled, print the same bytes (output, `tap` lines, `inspect` read mid-run and
/// at the end) with fusion on and off.
@Suite("fused = unfused, generated")
struct GeneratedFusionTests {
  /// One Int-to-Int stage of each fusible operator (`enumerated` is followed by the `map` that
  /// makes its tuples Ints again).
  static let stages: [String: String] = [
    "map": "map { $0 + 1 }",
    "filter": "filter { $0 % 3 != 0 }",
    "drop": "drop 1",
    "take": "take 4",
    "takeWhile": "takeWhile { $0 < 9 }",
    "dropWhile": "dropWhile { $0 < 3 }",
    "compactMap": "compactMap { $0 % 4 == 0 ? nil : $0 }",
    "enumerated": "enumerated | map { $0.0 + $0.1 }",
  ]

  /// Every fused step has a stage here, so a new fusible operator cannot be left out.
  @Test func everyFusibleOperatorIsGenerated() {
    let fusibleSteps = RegistryTests.runnable.filter {
      if case .node(_, _?, _, _) = RegistryTests.run(of: $0) { return true }
      return false
    }.map(\.name)
    #expect(Set(fusibleSteps) == Set(Self.stages.keys))
  }

  /// Runs of 1–4 stages: every operator alone, every pair, and a fixed spread of triples and
  /// quadruples in which each operator stands at each position. Under ThreadSanitizer (the suite's
  /// third pass, looking for races, not for differences) every sixteenth of them, and `take` alone,
  /// which ends its input early behind every consumer (each consumer's check that its views showed
  /// a cancellation needs one run that cancels something).
  static let runs: [[String]] =
    underThreadSanitizer
    ? allRuns.enumerated().filter { $0.offset % 16 == 0 || $0.element == ["take"] }.map(\.element) : allRuns

  static let underThreadSanitizer = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil

  static let allRuns: [[String]] = {
    let names = stages.keys.sorted()
    var runs = names.map { [$0] }
    for first in names { for second in names { runs.append([first, second]) } }
    for length in 3...4 {
      for index in 0..<(2 * names.count) {
        runs.append((0..<length).map { position in names[(index * (position + 3) + position * 5) % names.count] })
      }
    }
    return runs
  }()

  /// The sources a run stands behind: fused in (`range`, `from`) or a node of its own (`timer`).
  static let sources = ["range 1 12", "from 5 1 7 2 8 3 9", "timer 1 | take 12"]

  /// The consumers: each a script around `PIPELINE` (the source and the run), read with `inspect`.
  static let consumers = [
    // Finishing consumers: one that has all it needs, one that ends early, a zip's shorter input.
    "PIPELINE | tap \"t\" | take 2 | count\ninspect 1",
    "PIPELINE | first\ninspect 1",
    "zip(PIPELINE | tap \"t\", from 1 2) | drain\ninspect 1",
    "combineLatest(PIPELINE, empty) | drain\ninspect 1",
    // A sink that takes each element without waiting, which a run looping over its own source hands
    // every element in one loop (`push`).
    "PIPELINE | count\ninspect 1",
    // Failing consumers: a stage after, a sibling.
    "PIPELINE | map { 10 / ($0 - 4) } | collect\ninspect 1",
    "merge(PIPELINE | tap \"t\", fail \"x\") | drain\ninspect 1",
    // The sink fails, taking elements without waiting.
    "PIPELINE | reduce 0 { $0 + 10 / ($1 - 4) }\ninspect 1",
    // Cancelled, read mid-run and at the end.
    "PIPELINE | tap \"t\" | print &\nsleep 2.5\ninspect 1\ncancel 1\nwait\ninspect 1",
    // Paced by a timer: read while the run has passed some of its source's elements, then at its end.
    "zip(PIPELINE, timer 1 | take 20) | print &\nsleep 2.5\ninspect 1\nwait\ninspect 1",
    // Fed by a channel: read while it waits for more, then at its end.
    "channel c of: Int | RUN | tap \"t\" | print &\nsend c 3 1 4 1 5\ninspect 1\nclose c\nwait\ninspect 1",
    // Inside a flatMap body, ended early by the consumer.
    "from 1 2 | flatMap { PIPELINE } | take 3 | sum\ninspect 1",
  ]

  static func script(_ consumer: String, source: String, run: [String]) -> String {
    let text = run.compactMap { stages[$0] }.joined(separator: " | ")
    return consumer.replacing("PIPELINE", with: source + " | " + text).replacing("RUN", with: text)
  }

  static func output(of script: String, fusing: Bool) async -> String {
    let captured = Locked<[String]>([])
    let console = Console()
    console.setLineWriter { line, stream in captured.withLock { $0.append(stream == .error ? "! " + line : line) } }
    let shell = Shell(console: console, interactive: false, virtualTime: true, fusing: fusing)
    let status = await shell.engine.runScript(SourceFile(name: nil, text: script))
    shell.engine.close()
    return (captured.withLock { $0 } + ["status \(status)"]).joined(separator: "\n")
  }

  /// The causes SPEC section 12 allows, and "downstream failed" (see `CancelCause`).
  static let causes: Set<String> = [
    "downstream finished", "downstream cancelled", "downstream failed", "sibling finished", "sibling failed",
    "newer element", "job cancelled",
  ]

  @Test("fused and unfused print the same", arguments: consumers.indices)
  func fusedEqualsUnfused(_ consumer: Int) async {
    var seen: Set<String> = []
    for source in Self.sources {
      for run in Self.runs {
        let script = Self.script(Self.consumers[consumer], source: source, run: run)
        let fused = await Self.output(of: script, fusing: true)
        let unfused = await Self.output(of: script, fusing: false)
        #expect(fused == unfused, "\(script)")
        for cause in Self.cancelCauses(in: unfused) {
          seen.insert(cause)
          #expect(Self.causes.contains(cause), "unknown cause '\(cause)' in \(script)")
          #expect(cause != "job cancelled" || script.contains("cancel 1"), "\(script)")
        }
        #expect(!unfused.contains("! error: ") || !unfused.contains("status 0"), "\(script)")
      }
    }
    // The views were really read: every consumer shows some node cancelled for a cause.
    #expect(!seen.isEmpty)
  }

  /// The words in each `cancelled (…)` of an output.
  static func cancelCauses(in output: String) -> [String] {
    output.split(separator: "cancelled (").dropFirst().compactMap { rest in
      rest.firstIndex(of: ")").map { String(rest[..<$0]) }
    }
  }
}

/// `inspect` of a fused run read while it runs on the real clock, looping over its source and
/// handing a sink every element (`push`, counts published every 1,024 elements): every reading is
/// one possible moment, with no node showing more than its upstream passed on.
@Suite("fused counts read mid-run")
struct FusedCountsMidRunTests {
  @Test func noNodeIsAheadOfItsUpstream() async {
    let inspections = 40
    let script =
      "range 1 1000000000 | map { $0 * 2 } | filter { $0 % 3 == 0 } | count &\n"
      + String(repeating: "inspect 1\n", count: inspections) + "cancel 1\nwait\n"
    let captured = Locked<[String]>([])
    let console = Console()
    console.setLineWriter { line, _ in captured.withLock { $0.append(line) } }
    let shell = Shell(console: console, interactive: false, virtualTime: false, fusing: true)
    _ = await shell.engine.runScript(SourceFile(name: nil, text: script))
    shell.engine.close()
    let lines = captured.withLock { $0 }
    // Each table: the rows of range, map, filter and count, with their IN and OUT.
    var tables = 0
    for (index, line) in lines.enumerated() where line.hasPrefix("NODE") && index + 4 < lines.count {
      let counts = lines[(index + 1)...(index + 4)].map { row in
        row.split(separator: " ").suffix(2).map { Int($0) }
      }
      guard counts.count == 4, counts.allSatisfy({ $0.count == 2 }) else {
        Issue.record("not a table: \(lines[index...(index + 4)])")
        continue
      }
      tables += 1
      let rows = "\(lines[index...(index + 4)])"
      // The source's OUT, then each stage's IN at most the OUT before it, and each stage's OUT at
      // most its IN (the sink's OUT is its result, printed at the end).
      for stage in 1...3 {
        guard let input = counts[stage][0], let upstream = counts[stage - 1][1], let output = counts[stage][1] else {
          Issue.record("a count missing in \(rows)")
          break
        }
        #expect(input <= upstream, "\(rows)")
        #expect(stage == 3 || output <= input, "\(rows)")
      }
    }
    #expect(tables == inspections, "\(lines.prefix(12))")
  }
}
