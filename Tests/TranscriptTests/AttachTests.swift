import AsyncAlgorithms
import Foundation
import Locking
import MarbleTesting
import PipeshProbe
import Testing

/// `pipesh attach SOCKET`: this test process is the user's program, its recorder listening on a
/// socket; pipesh attaches, draws the probes as they are, and lets go; clients that say nothing,
/// say too much or say something else are dropped without stopping the listener.
@Suite("pipesh attach draws a running program's probes", .serialized)
struct AttachTests {
  /// A recorder holding a marble test's run of the sequence `build` makes, its probes into it.
  static func recorded<Probed: AsyncSequence & SendableMetatype>(
    _ build: @escaping @Sendable (TestClock, ProbeRecorder) throws -> Probed
  ) async throws -> ProbeRecorder {
    let kept = Locked<ProbeRecorder?>(nil)
    _ = await Marbles.record { clock in
      let recorder = ProbeRecorder(clock: clock)
      kept.withLock { $0 = recorder }
      return try build(clock, recorder)
    }
    return try #require(kept.withLock { $0 })
  }

  /// A recorder holding a marble test's run of AA's debounce, probed before and after it.
  static func recordedDebounce() async throws -> ProbeRecorder {
    try await recorded { clock, recorder in
      try MarbleInput("-a--b--c---d--|", clock: clock).probe("keys", into: recorder)
        .debounce(for: .seconds(2), clock: clock).probe("debounced", into: recorder)
    }
  }

  @Test func attachDrawsTheProbesAndTheProgramGoesOnListening() async throws {
    let recorder = try await Self.recordedDebounce()
    let path = "/tmp/pipesh-attach-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-attach-\(getpid()).trace").path
    defer { try? FileManager.default.removeItem(atPath: saved) }
    let attached = try Pipesh.run(["attach", path, "--save", saved])
    #expect(attached.status == 0, "\(attached.stderr)")
    #expect(
      ProbeTraceTests.lanes(attached.stdout, labels: ["keys", "debounced"]) == ["-a--b--c---d--|", "---a--b--c---d|"],
      "\(attached.stdout)")
    #expect(try String(contentsOfFile: saved, encoding: .utf8) == recorder.trace())
    // The program still listens: a second attach is answered too.
    #expect(try Pipesh.run(["attach", path]).status == 0)
    listener.stop()
    let gone = try Pipesh.run(["attach", path])
    #expect(gone.status == 1)
    #expect(gone.stderr.hasPrefix("pipesh attach: nothing listens on \(path): start the program"), "\(gone.stderr)")
  }

  @Test func hostileClientsAreDroppedAndTheNextIsAnswered() async throws {
    let recorder = try await Self.recordedDebounce()
    let path = "/tmp/pipesh-attach-hostile-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    // One says nothing and keeps its connection open; one sends a megabyte without a newline; one
    // asks for something else, and is told what is answered.
    let silent = try ProbeClient.connect(path, timeout: 5).get()
    defer { close(silent) }
    let flooding = try ProbeClient.connect(path, timeout: 5).get()
    let megabyte = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    _ = megabyte.withUnsafeBytes { send(flooding, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    close(flooding)
    let asking = try ProbeClient.connect(path, timeout: 5).get()
    _ = Array("jobs\n".utf8).withUnsafeBytes { send(asking, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var reply = [UInt8](repeating: 0, count: 200)
    let count = reply.withUnsafeMutableBytes { recv(asking, $0.baseAddress, $0.count, Int32(MSG_WAITALL)) }
    close(asking)
    #expect(
      String(decoding: reply[..<max(count, 0)], as: UTF8.self)
        == "error: pipesh attach asks for 'trace'; nothing else is answered\n")
    // After them all (the silent one dropped at its timeout), pipesh is answered in full.
    let attached = try Pipesh.run(["attach", path])
    #expect(attached.status == 0, "\(attached.stderr)")
    #expect(ProbeTraceTests.lanes(attached.stdout, labels: ["debounced"]) == ["---a--b--c---d|"])
  }

  /// `-c TEXT`: statements about the running program, each reading its probes as they are then.
  @Test func aSessionListsDrawsAndSavesTheLiveProbes() async throws {
    let recorder = try await Self.recordedDebounce()
    let path = "/tmp/pipesh-attach-session-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-session-\(getpid()).trace").path
    defer { try? FileManager.default.removeItem(atPath: saved) }
    // A file there already, readable by all, is the user's alone once saved over.
    #expect(FileManager.default.createFile(atPath: saved, contents: Data(), attributes: [.posixPermissions: 0o644]))
    let session = try Pipesh.run(["attach", path, "-c", "jobs; tasks; draw debounced until: 5s\nsave \"\(saved)\""])
    #expect(session.status == 0, "\(session.stderr)")
    #expect(
      session.stdout.hasPrefix(
        """
        PROBE      STATE     ELEMENTS  ASKED  TASK  LAST
        debounced  finished  4         5      1     +15.000s
        keys       finished  4         5      2     +15.000s
        TASK  ASKED      WAITING ON  LAST ASK
        1     debounced  -           +14.000s
        2     keys       -           +12.000s

        """), "\(session.stdout)")
    let drawing = session.stdout.split(separator: "\n").dropFirst(6).joined(separator: "\n")
    #expect(ProbeTraceTests.lanes(drawing, labels: ["debounced"]) == ["---a"], "\(session.stdout)")
    #expect(!drawing.contains("keys"), "draw NAME draws that probe alone:\n\(session.stdout)")
    #expect(try String(contentsOfFile: saved, encoding: .utf8) == recorder.trace())
    let mode = try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // A device is written as it is: its mode stays.
    let null = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.posixPermissions] as? Int
    #expect(try Pipesh.run(["attach", path, "--save", "/dev/null"]).status == 0)
    #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.posixPermissions] as? Int == null)
    // A name no probe has fails where it stands, after what came before it was drawn.
    let mistyped = try Pipesh.run(["attach", path, "-c", "draw debounced\ndraw kyes"])
    #expect(mistyped.status == 1)
    #expect(ProbeTraceTests.lanes(mistyped.stdout, labels: ["debounced"]) == ["---a--b--c---d|"])
    #expect(
      mistyped.stderr
        == "error: draw: no probe is named 'kyes' (did you mean 'keys'?); the program's are debounced, keys\n")
    // What the session cannot answer is said before anything is asked of the program.
    let wrong = try Pipesh.run(["attach", path, "-c", "jobs\nwhy\ndrow"])
    #expect(wrong.status == 2 && wrong.stdout.isEmpty)
    #expect(wrong.stderr.hasPrefix("<-c>:2:1: error: why takes two probes' names"), "\(wrong.stderr)")
    #expect(wrong.stderr.contains("<-c>:3:1: error: 'drow' is not a command of an attached session\ndrow\n^~~~\n"))
    #expect(wrong.stderr.contains("note: did you mean 'draw'?"))
  }

  /// `top` not at a terminal: one frame, a row per lane with its rate over the 5 s before the
  /// probes' last event (the latest time a trace tells) and the time from its last element to it.
  @Test func topShowsEachLanesRate() async throws {
    let recorder = try await Self.recordedDebounce()
    let path = "/tmp/pipesh-attach-top-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    let session = try Pipesh.run(["attach", path, "-c", "top"])
    #expect(session.status == 0, "\(session.stderr)")
    // keys: a, b, c, d at 2, 5, 8, 12 s, finished at 15 (the last event): d alone in (10 s, 15 s];
    // debounced: a, b, c, d at 4, 7, 10, 14 s: d alone too.
    #expect(
      session.stdout == """
        pipesh attach top · 2 lanes · up to +15.000s, the probes' last event
        PROBE      STATE     ELEMENTS  ASKED  RATE/s  LAST
        debounced  finished  4         5      0.2     1.0s
        keys       finished  4         5      0.2     3.0s

        """, "\(session.stdout)")
  }

  /// `why FROM TO` over AA's debounce guide's run, probed before and after debounce and after a
  /// map: keys' elements that did not come out at debounced; after the map, nothing is claimed.
  @Test func whySaysWhichElementsDidNotComeOut() async throws {
    let recorder = try await Self.recorded { clock, recorder in
      try MarbleInput("abcd----e---f-g----|", clock: clock).probe("keys", into: recorder)
        .debounce(for: .seconds(3), clock: clock).probe("debounced", into: recorder)
        .map { $0.uppercased() }.probe("shouted", into: recorder)
    }
    let path = "/tmp/pipesh-attach-why-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    let session = try Pipesh.run(["attach", path, "-c", "why keys debounced; why debounced shouted; why keys nobody"])
    #expect(session.status == 1)
    // keys: a b c d at 1-4 s, e at 9, f at 13, g at 15; debounced: d, e and g.
    #expect(
      session.stdout == """
        keys → debounced: in 7 = out 3 + did not come out 4
        did not come out at debounced (dropped by what stands between):
          a  +1.000s
          b  +2.000s
          c  +3.000s
          f  +13.000s
        debounced → shouted: in 3, out 3
        shouted gave 3 elements that no element of debounced says (the first: D at +7.000s):
        an operator between them makes or changes elements, so what did not come out cannot be told from these probes

        """, "\(session.stdout)")
    #expect(
      session.stderr == "error: why: no probe's lane is named 'nobody'; the program's are shouted, debounced, keys\n",
      "\(session.stderr)")
    let wrong = try Pipesh.run(["attach", path, "-c", "why keys"])
    #expect(wrong.status == 2 && wrong.stdout.isEmpty)
    // Two equal elements, one out: which one cannot be told, and is marked so.
    let equal = try await Self.recorded { clock, recorder in
      try MarbleInput("aa---|", clock: clock).probe("keys", into: recorder)
        .debounce(for: .seconds(2), clock: clock).probe("debounced", into: recorder)
    }
    let second = try equal.listen(onSocket: path + "2")
    defer { second.stop() }
    let marked = try Pipesh.run(["attach", path + "2", "-c", "why keys debounced"])
    #expect(marked.status == 0, "\(marked.stderr)")
    #expect(
      marked.stdout == """
        keys → debounced: in 2 = out 1 + did not come out 1
        did not come out at debounced (dropped by what stands between):
          a  +2.000s  ?
        ? an element that came out says the same: which of the equal ones came out cannot be told from the probes

        """, "\(marked.stdout)")
    #expect(wrong.stderr.hasPrefix("<-c>:1:1: error: why takes two probes' names"), "\(wrong.stderr)")
  }

  /// A probe named with spaces and a terminal escape: `draw` and `why` take the name in quotes,
  /// and every view shows it escaped.
  @Test func aProbeNamedWithSpacesAndAnEscapeIsDrawnByItsQuotedName() async throws {
    let recorder = try await Self.recorded { clock, recorder in
      try MarbleInput("-a-b-|", clock: clock).probe("odd \u{1B}[1mlane", into: recorder)
        .map { $0 }.probe("after", into: recorder).map { $0 }.probe("tab\tbed", into: recorder)
    }
    let path = "/tmp/pipesh-attach-odd-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    let session = try Pipesh.run(
      ["attach", path, "-c", #"draw "odd \u{1B}[1mlane"; why "odd \u{1B}[1mlane" after; jobs; draw nobody"#])
    #expect(session.status == 1, "\(session.stderr)")
    #expect(session.stdout.contains(#"odd \u{1B}[1mlane   -a-b-|"#), "\(session.stdout) \(session.stderr)")
    #expect(session.stdout.contains(#"odd \u{1B}[1mlane → after: in 2 = out 2"#), "\(session.stdout)")
    #expect(!session.stdout.contains("\u{1B}") && !session.stderr.contains("\u{1B}"), "\(session.stdout)")
    #expect(session.stderr.contains(#"the program's are after, odd \u{1B}[1mlane, tab\u{9}bed"#), "\(session.stderr)")
    // A tab in a name would break the tables' columns: jobs shows it escaped too.
    #expect(session.stdout.contains(#"tab\u{9}bed"#) && !session.stdout.contains("\t"), "\(session.stdout)")
  }

  /// `jobs` and `tasks` fit the screen: a probe named longer than it is shortened with `…`.
  @Test func longProbeNamesFitEightyColumns() async throws {
    let name = "the-search-field-s-" + String(repeating: "debounced-query-", count: 6)
    let recorder = try await Self.recorded { clock, recorder in
      try MarbleInput("-a-b-|", clock: clock).probe(name, into: recorder)
    }
    let path = "/tmp/pipesh-attach-wide-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    let session = try Pipesh.run(["attach", path, "-c", "jobs; tasks"], environment: ["COLUMNS": "80"])
    #expect(session.status == 0, "\(session.stderr)")
    let lines = session.stdout.split(separator: "\n")
    #expect(lines.count == 4, "\(session.stdout)")
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(session.stdout)")
    #expect(lines[1].hasPrefix("the-search-field-s-debounced-query-") && lines[1].contains("…  finished  2"))
    #expect(lines[3].hasPrefix("1     the-search-field-s-") && lines[3].contains("…  -"), "\(session.stdout)")
  }

  /// At a terminal, without -c: a prompt, each line read against the live probes, an error said
  /// with its caret and the prompt back, `quit` detaching with status 0.
  @Test func atATerminalAttachGivesAPrompt() async throws {
    let recorder = try await Self.recordedDebounce()
    let path = "/tmp/pipesh-attach-prompt-\(getpid()).sock"
    let listener = try recorder.listen(onSocket: path)
    defer { listener.stop() }
    let terminal = try Terminal(arguments: ["attach", path])
    try terminal.expect("quit detaches")
    try terminal.expect("attach> ")
    terminal.type("jobs\r")
    try terminal.expect("debounced  finished  4")
    try terminal.expect("attach> ")
    terminal.type("drow\r")
    try terminal.expect("note: did you mean 'draw'?")
    try terminal.expect("attach> ")
    terminal.type("draw keys\r")
    try terminal.expect("-a--b--c---d--|")
    try terminal.expect("attach> ")
    // top at a terminal: a frame a second, each drawn over the last, until Ctrl-C.
    terminal.type("top\r")
    try terminal.expect("pipesh attach top · a frame a second, Ctrl-C stops · 2 lanes · up to +15.000s")
    try terminal.expect("keys       finished  4         5      0.2     3.0s")
    try terminal.expect("\u{1B}[4F\u{1B}[J")
    try terminal.expect("keys       finished  4         5      0.2     3.0s")
    try terminal.interrupt(until: "stopped (Ctrl-C)")
    try terminal.expect("attach> ")
    terminal.type("sleep 300s; jobs\r")
    try terminal.interrupt(until: "stopped (Ctrl-C)")
    try terminal.expect("attach> ")
    terminal.type("quit\r")
    try terminal.expectExit(0)
  }
}
