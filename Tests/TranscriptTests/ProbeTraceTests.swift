import AsyncAlgorithms
import Foundation
import Locking
import MarbleTesting
import PipeshProbe
import Testing

/// A program's own sequences, probed with `PipeshProbe`, drawn by pipesh from the trace the probes
/// wrote: here a marble test of swift-async-algorithms' debounce (MarbleTesting's clock), whose
/// probes' lanes must be the lanes pipesh draws for the same pipeline typed into it.
@Suite("a probe's trace, drawn by pipesh")
struct ProbeTraceTests {
  static func lanes(_ drawing: String, labels: [String]) -> [String] {
    let lines = drawing.split(separator: "\n").map(String.init)
    return labels.compactMap { label in
      lines.first { $0.hasPrefix(label + " ") }.map {
        String($0.dropFirst(label.count)).trimmingCharacters(in: .whitespaces)
      }
    }
  }

  @Test func aMarbleTestsProbesDrawAsPipeshDrawsThePipeline() async throws {
    let kept = Locked<ProbeRecorder?>(nil)
    let diagram = await Marbles.record { clock in
      let recorder = ProbeRecorder(clock: clock)
      kept.withLock { $0 = recorder }
      return try MarbleInput("-a--b--c---d--|", clock: clock).probe("keys", into: recorder)
        .debounce(for: .seconds(2), clock: clock).probe("debounced", into: recorder)
    }
    #expect(diagram.description == "---a--b--c---d|", "MarbleTesting's own record of the run")
    let recorder = try #require(kept.withLock { $0 })
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-probe-\(getpid()).trace").path
    try recorder.write(toFile: path)
    defer { try? FileManager.default.removeItem(atPath: path) }

    let probed = try Pipesh.run(["-c", "draw \"\(path)\""])
    #expect(probed.status == 0 && probed.stderr.isEmpty, "\(probed.stderr)")
    let typed = try Pipesh.run(["--virtual-time", "-c", "draw marble \"-a--b--c---d--|\" | debounce 2"])
    #expect(typed.status == 0, "\(typed.stderr)")
    let probedLanes = Self.lanes(probed.stdout, labels: ["keys", "debounced"])
    #expect(probedLanes == Self.lanes(typed.stdout, labels: ["marble \"-a--b--c---d--|\"", "debounce 2"]))
    #expect(probedLanes == ["-a--b--c---d--|", "---a--b--c---d|"], "\(probed.stdout)")
  }

  @Test func aFlightRecordersTraceSaysItStartsMidStream() async throws {
    let kept = Locked<ProbeRecorder?>(nil)
    _ = await Marbles.record { clock in
      let recorder = ProbeRecorder(clock: clock, keeping: .last(4))
      kept.withLock { $0 = recorder }
      return try MarbleInput("abcdefgh|", clock: clock).probe("letters", into: recorder)
    }
    let recorder = try #require(kept.withLock { $0 })
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-flight-\(getpid()).trace").path
    try recorder.write(toFile: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let drawn = try Pipesh.run(["-c", "draw \"\(path)\""])
    #expect(drawn.status == 0)
    // start, 8 asks and elements, the last ask, finished: 19 events, the last 4 kept.
    // (The note is wrapped at the width of a view: its lines joined here.)
    #expect(
      drawn.stderr.replacingOccurrences(of: "\n  ", with: " ")
        == "draw: \(path) starts mid-stream: the recorder that wrote it kept only its last events and dropped the 15 "
        + "before them\n")
    #expect(Self.lanes(drawn.stdout, labels: ["letters"]) == ["h|"], "\(drawn.stdout)")
    // The page pipesh serve F.trace serves (draw's web page) says it too, in its heading.
    let page = path + ".html"
    defer { unlink(page) }
    let paged = try Pipesh.run(["-c", "draw \"\(path)\" to: \"\(page)\""])
    #expect(paged.status == 0, "\(paged.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("it starts mid-stream: the recorder dropped the 15 events before it"))
  }

  /// The shell's `tasks "F.trace"` lists a saved probe trace's asking tasks, as an attached
  /// session's `tasks` lists a live one's; a trace whose asks name no task says so; a shared page
  /// refuses it (PageSandboxTests).
  @Test func theShellListsASavedTracesAskingTasks() throws {
    let listed = try Pipesh.run(["-c", "tasks \"Examples/SearchField/search.trace\""], directory: ExportTests.root)
    #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
    #expect(
      listed.stdout == """
        TASK  ASKED       WAITING ON  LAST ASK
        1     results     -           +14.000s
        2     queries     -           +9.000s
        3     text, keys  -           +7.000s
        4     search      -           +5.000s
        5     search #2   -           +14.000s

        """)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-untasked-\(getpid()).trace").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let saved = try Pipesh.run(["-c", "trace from 1 2 | drain to: \"\(path)\"\ntasks \"\(path)\""])
    #expect(saved.status == 0, "\(saved.stderr)")
    #expect(saved.stdout.hasSuffix("no lane of \(path) was asked by a task it names\n"), "\(saved.stdout)")
    // No file, or more than one: an error at its place, before anything runs.
    let empty = try Pipesh.run(["-c", "tasks \"\""])
    #expect(empty.status == 2, "\(empty.stderr)")
    #expect(empty.stderr.hasPrefix("<-c>:1:7: error: tasks: give the trace's file"), "\(empty.stderr)")
    let two = try Pipesh.run(["-c", "tasks \"a.trace\" 1"])
    #expect(two.status == 2, "\(two.stderr)")
    #expect(two.stderr.hasPrefix("<-c>:1:17: error: tasks: give one saved trace's file"), "\(two.stderr)")
  }

  /// The shell's `why "F.trace" FROM TO` says which elements of a saved probe trace's lane did not
  /// come out at a lane after it, as an attached session's `why` does of live probes: the search
  /// field's debounce let "swi" and "swift" through of the five texts typed.
  @Test func theShellSaysWhatALaneOfASavedTraceDidNotPassOn() throws {
    let trace = "\"Examples/SearchField/search.trace\""
    let why = try Pipesh.run(["-c", "why \(trace) text queries"], directory: ExportTests.root)
    #expect(why.status == 0 && why.stderr.isEmpty, "\(why.stderr)")
    #expect(
      why.stdout == """
        text → queries: in 5 = out 2 + did not come out 3
        did not come out at queries (dropped by what stands between):
          s     +1.000s
          sw    +2.000s
          swif  +6.000s

        """, "\(why.stdout)")
    // One lane only: an error at its place, before anything runs; a lane the trace has not: its names.
    let one = try Pipesh.run(["-c", "why \(trace) text"], directory: ExportTests.root)
    #expect(one.status == 2)
    #expect(one.stderr.hasPrefix("<-c>:1:41: error: why: after the trace's file, two of its lanes"), "\(one.stderr)")
    let unknown = try Pipesh.run(["-c", "why \(trace) text queris"], directory: ExportTests.root)
    #expect(unknown.status == 1)
    #expect(
      unknown.stderr
        == "<-c>:1:46: error: why: no probe's lane is named 'queris' (did you mean 'queries'?); the program's are "
        + "results, queries, text, keys, search, search #2\nwhy \(trace) text queris\n"
        + String(repeating: " ", count: 45) + "^~~~~~\n", "\(unknown.stderr)")
  }

  /// A trace a flight recorder cut short, whose later lane still runs and whose names and values
  /// hold terminal escapes: `why` leaves out the later lane's first element (its source was
  /// dropped), says an element before the last one out may still be held, shows escapes as
  /// `\u{1B}`, and, asked the wrong way round, says so.
  @Test func whyOfACutTraceOfARunningProgramClaimsNoMoreThanItHas() throws {
    let path = "/tmp/pipesh-why-cut-\(getpid()).trace"
    defer { unlink(path) }
    let lines = [
      #"{"pipesh":"trace","version":1,"pipeline":"probes of x","clock":"virtual","labels":["keys","out","\u001b[2J"],"dropped":3}"#,
      #"{"ns":500000000,"job":1,"node":2,"label":"out","event":"element","value":"z"}"#,
      #"{"ns":1000000000,"job":1,"node":1,"label":"keys","event":"element","value":"\u001b[2Ja"}"#,
      #"{"ns":2000000000,"job":1,"node":1,"label":"keys","event":"element","value":"b"}"#,
      #"{"ns":2000000000,"job":1,"node":3,"label":"\u001b[2J","event":"start"}"#,
      #"{"ns":4000000000,"job":1,"node":2,"label":"out","event":"element","value":"b"}"#,
      #"{"ns":5000000000,"job":1,"node":1,"label":"keys","event":"element","value":"d"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let why = try Pipesh.run(["-c", "why \"\(path)\" keys out; why \"\(path)\" out keys; why \"\(path)\" keys x"])
    #expect(why.status == 1)
    #expect(
      why.stdout == #"""
        keys → out: in 3 = out 1 + did not come out 1 + not out yet 1 (out still runs)
        did not come out at out (dropped by what stands between, or held there: out still runs):
          \u{1B}[2Ja  +1.000s
        not out yet:
          d           +5.000s
        (out's first element came from one of keys's the recorder dropped: it is left out)
        out → keys: in 2, out 3
        keys gave 3 elements that no element of out says (the first: \u{1B}[2Ja at +1.000s):
        an operator between them makes or changes elements, so what did not come out cannot be told from these probes
        (the other way round, each element of out is one of keys's: did you mean why "\#(path)" keys out?)

        """#, "\(why.stdout)")
    #expect(why.stderr.contains("the program's are out, keys, \\u{1B}[2J\n"), "\(why.stderr)")
    #expect(!why.stdout.contains("\u{1B}") && !why.stderr.contains("\u{1B}"))
  }

  /// `why` quotes a value whose spaces would not be seen, says what a cancelled TO held went with
  /// it, and refuses the same lane twice.
  @Test func whyQuotesHiddenSpacesAndSaysWhatACancelHeld() throws {
    let path = "/tmp/pipesh-why-cancelled-\(getpid()).trace"
    defer { unlink(path) }
    let lines = [
      #"{"pipesh":"trace","version":1,"pipeline":"probes of x","clock":"real","labels":["typed","queries"]}"#,
      #"{"ns":1000000,"job":1,"node":1,"label":"typed","event":"element","value":"swift "}"#,
      #"{"ns":2000000,"job":1,"node":1,"label":"typed","event":"element","value":"swift"}"#,
      #"{"ns":3000000,"job":1,"node":2,"label":"queries","event":"element","value":"swift"}"#,
      #"{"ns":4000000,"job":1,"node":1,"label":"typed","event":"element","value":"swifty"}"#,
      #"{"ns":5000000,"job":1,"node":2,"label":"queries","event":"cancelled","reason":"its task was cancelled"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let why = try Pipesh.run(["-c", "why \"\(path)\" typed queries"])
    #expect(why.status == 0, "\(why.stderr)")
    #expect(
      why.stdout == """
        typed → queries: in 3 = out 1 + did not come out 2
        did not come out at queries (dropped by what stands between, or held there when queries cancelled):
          'swift '  +0.001s
          swifty    +0.004s

        """, "\(why.stdout)")
    let same = try Pipesh.run(["-c", "why \"\(path)\" typed typed"])
    #expect(same.status == 1)
    #expect(same.stderr.contains("error: why: FROM and TO are the same lane ('typed')"), "\(same.stderr)")
  }

  /// Asked the wrong way round, `why` suggests the other: a name that is not a word is quoted there,
  /// so the suggestion can be typed back as it is.
  @Test func whySuggestsTheOtherWayRoundAsItCanBeTyped() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("why-hint-\(getpid()).trace").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let lines = [
      #"{"pipesh":"trace","version":1,"pipeline":"probes of x","clock":"virtual","labels":["my-keys","out"]}"#,
      #"{"ns":1000000000,"job":1,"node":1,"label":"my-keys","event":"element","value":"a"}"#,
      #"{"ns":2000000000,"job":1,"node":2,"label":"out","event":"element","value":"a"}"#,
      #"{"ns":3000000000,"job":1,"node":1,"label":"my-keys","event":"element","value":"b"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let wrong = try Pipesh.run(["-c", "why \"\(path)\" out \"my-keys\""])
    let hint = "did you mean why \"\(path)\" \"my-keys\" out?)"
    #expect(wrong.stdout.contains(hint), "\(wrong.stdout)")
    let typedBack = try Pipesh.run(["-c", "why \"\(path)\" \"my-keys\" out"])
    #expect(typedBack.status == 0, "\(typedBack.stderr)")
    #expect(typedBack.stdout.hasPrefix("my-keys → out: in 2 = out 1 + not out yet 1"), "\(typedBack.stdout)")
  }
}
