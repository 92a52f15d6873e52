import Foundation
import Testing

/// `trace P to: "F.trace"` and `replay`: the saved file is JSON lines with the fields
/// Docs/internals.md documents, and replaying it prints what `trace P` printed, byte for byte, on the virtual clock.
@Suite("saved traces replay as they ran")
struct TraceFileTests {
  static let pipelines = [
    "timer 1 | take 3 | map { \"v\\($0)\" } | print",
    "merge(timer 1 | take 2, timer 1.5 | take 2) | debounce 0.4 | print time: true",
    "from 1 2 3 | map { 10 / ($0 - 2) } | print",
    "from \"tab\\there\" \"quote \\\"x\\\"\" \"ü\" | map { $0 + \"!\" } | print",
    "from 1 2 3 | flatMap { timer 1 | take $0 } | reductions 0 { $0 + $1 } | print",
    "timer 1 | share | take 2 | print",
    "zip(timer 1, from 1 2) | print",
  ]

  private func scratch() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test func replayPrintsWhatTracePrinted() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    for (index, pipeline) in Self.pipelines.enumerated() {
      let file = directory.appendingPathComponent("\(index).trace").path
      let traced = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline)"])
      let saved = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) to: \"\(file)\""])
      let replayed = try Pipesh.run(["-c", "replay \"\(file)\""])
      #expect(!traced.stdout.isEmpty)
      // Saving prints the trace too, then where it went; the run's status is the traced job's.
      #expect(saved.stdout.hasPrefix(traced.stdout), "\(pipeline)")
      #expect(saved.stdout.hasSuffix(" bytes)\n") && saved.stdout.contains("trace: wrote \(file) ("), "\(pipeline)")
      #expect(saved.status == traced.status, "\(pipeline)")
      #expect(replayed.stdout == traced.stdout, "\(pipeline)")
      #expect(replayed.status == 0, "\(pipeline): \(replayed.stderr)")
    }
  }

  /// Every line is a JSON object with the documented fields; the first says what was traced.
  @Test func everyLineIsDocumentedJSON() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("run.trace").path
    let pipeline = "from 1 2 3 | map { 10 / ($0 - 2) } | print"
    _ = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) to: \"\(file)\""])
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    let objects = try lines.map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let header = try #require(objects.first)
    #expect(header["pipesh"] as? String == "trace")
    #expect(header["version"] as? Int == 1)
    #expect(header["pipeline"] as? String == pipeline)
    #expect(header["clock"] as? String == "virtual")
    #expect(header["labels"] as? [String] == ["from 1 2 3", "map { 10 / ($0 - 2) }", "print"])
    // Its print is written: not implicit, and the field is written only when true.
    #expect(header["implicitSink"] == nil)
    let implicitFile = directory.appendingPathComponent("implicit.trace").path
    _ = try Pipesh.run(["--virtual-time", "-c", "trace from 1 2 3 to: \"\(implicitFile)\""])
    let implicitHeader = try String(contentsOfFile: implicitFile, encoding: .utf8).split(separator: "\n").first
    let implicit = try #require(
      try JSONSerialization.jsonObject(with: Data((implicitHeader ?? "").utf8)) as? [String: Any])
    #expect(implicit["implicitSink"] as? Bool == true && implicit["pipeline"] as? String == "from 1 2 3")
    #expect(implicit["labels"] as? [String] == ["from 1 2 3", "print"])
    var events: [String] = []
    for object in objects.dropFirst() {
      let event = try #require(object["event"] as? String)
      events.append(event)
      #expect(object["ns"] as? Int == 0)
      #expect(object["job"] as? Int == 1)
      switch event {
      case "output":
        #expect(object["text"] as? String == "-10")
      case "start", "finished", "asked":
        #expect(object["node"] is Int && object["label"] is String)
      case "sending":
        #expect(object["channel"] is String && object["node"] is Int)
      case "element":
        #expect(object["value"] is String && object["node"] is Int)
      case "failed", "cancelled":
        #expect(object["reason"] is String && object["node"] is Int)
      case "task":
        #expect(object["task"] is Int && object["label"] is String)
        switch object["what"] as? String {
        case "started": #expect(object["kind"] is String)
        case "cancelled": #expect(object["by"] is String)
        case "ended": #expect(object["threw"] is Bool)
        default: Issue.record("a task event not in Docs/internals.md: \(object)")
        }
      default:
        Issue.record("an event not in Docs/internals.md: \(event)")
      }
    }
    #expect(events.filter { $0 == "start" }.count == 3)
    // Demand: print asks the map, the map its source (the map asks twice before it fails).
    #expect(events.filter { $0 == "asked" }.count == 4)
    #expect(events.contains("failed") && events.contains("cancelled") && events.contains("output"))
  }

  /// `speed:` plays the events in time on the session's clock: on the virtual clock the 3 s of
  /// the trace at speed 2 take 1.5 s of it, and the lines are the same.
  @Test func speedPlaysBackInTime() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("run.trace").path
    let pipeline = "timer 1 | take 3 | print"
    let traced = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) to: \"\(file)\""])
    #expect(traced.status == 0)
    let played = try Pipesh.run(["--virtual-time", "-c", "replay \"\(file)\" speed: 2\nfrom 1 | print time: true"])
    let plain = try Pipesh.run(["-c", "replay \"\(file)\""])
    #expect(played.stdout == plain.stdout + "+1.500s 1\n")
  }

  /// `pipesh --record F SCRIPT` saves every job of the script: replayed, its printed lines are the
  /// script's output, in order, among the jobs' events, each job aligned to its own labels.
  @Test func recordSavesTheWholeScript() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("run.pipe")
    try "timer 1 | take 2 | print &\nfrom \"a\" \"b\" | map { $0 + \"!\" } | print\nsleep 3\n".write(
      to: script, atomically: true, encoding: .utf8)
    let file = directory.appendingPathComponent("run.trace").path
    let run = try Pipesh.run(["--virtual-time", "--record", file, script.path])
    #expect(run.status == 0 && run.stdout == "a!\nb!\n[1] 0\n[1] 1\n")
    let replayed = try Pipesh.run(["-c", "replay \"\(file)\""])
    let lines = replayed.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { !$0.hasPrefix("+") } == ["a!", "b!", "[1] 0", "[1] 1"])
    #expect(lines.contains("+1.000s [1] timer 1  → 0"))
    #expect(lines.contains("+0.000s [2] map { $0 + \"!\" }  → a!"))
    // The 4 printed lines, and for each job 3 starts, 3 nodes × 2 elements and 3 ends, and its
    // task's start and end.
    #expect(lines.count == 4 + 2 * (3 + 3 * 2 + 3 + 2))
    let unwritable = try Pipesh.run(["--virtual-time", "--record", directory.path + "/no/such/dir.trace", script.path])
    #expect(unwritable.status == 1 && unwritable.stderr.contains("error: --record: "))
  }

  /// A picture without its title's group.
  static func untitled(_ svg: String) -> String {
    guard let start = svg.range(of: "<g class=\"title\">"),
      let end = svg[start.upperBound...].range(of: "</g>")
    else { return svg }
    return String(svg[..<start.lowerBound] + svg[end.upperBound...])
  }

  /// `draw "F.trace"` draws a saved trace as `draw P` draws the run, without running it.
  @Test func aSavedTraceDrawsAsTheRunDid() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pipelines = [
      "merge(timer 1 | take 2, timer 0.5 | take 2) | drain",
      "zip(timer 1, from 1 2) | drain",
      "from 1 2 3 | flatMap { timer 1 | take $0 } | drain",
      "marble \"a-b---|\" | flatMapLatest { timer 0.75 | take 3 } | drain",
      "marble \"ab-c---d|\" | debounce 1.5 | drain",
      // A body stage with an outer stage's text: the trace says which node built it.
      "from 1 2 | map { $0 * 2 } | flatMap { from $0 | map { $0 * 2 } } | drain",
      "from 1 2 | flatMap { from $0 | flatMap { from $0 ($0 + 1) | map { $0 * 2 } } } | map { $0 * 2 } | drain",
      "from 1 2 | flatMap { merge(from $0, from 5 | map { $0 * 2 }) | map { $0 * 2 } } concurrency: 2 | drain",
      // Without a sink: draw P draws no lane for the print pipesh adds, and the trace says it is
      // implicit (issue 48, item 12: draw "F.trace" drew it).
      "from 1 2 | map { $0 * 2 }",
      "merge(timer 1 | take 2, from 5)",
      "from 1 2 | flatMap { from $0 | map { $0 * 2 } }",
    ]
    for (index, pipeline) in pipelines.enumerated() {
      let file = directory.appendingPathComponent("\(index).trace").path
      let drawn = try Pipesh.run(["--virtual-time", "-c", "draw \(pipeline)"])
      _ = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) to: \"\(file)\""])
      let redrawn = try Pipesh.run(["-c", "draw \"\(file)\""])
      #expect(redrawn.status == 0 && redrawn.stdout == drawn.stdout, "\(pipeline)\n\(redrawn.stdout)")
      // The note that a run passed choices is the run's: a saved trace recorded one order, not its choices.
      let notes = drawn.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("draw: one order of several: ") }.joined(separator: "\n")
      #expect(redrawn.stderr == notes, "\(pipeline)")
      // The picture too, as help draw and Docs/exploring.md give it: the same bytes as draw P to: drew.
      for suffix in ["svg", "html"] {
        let picture = directory.appendingPathComponent("\(index)-run.\(suffix)").path
        let saved = directory.appendingPathComponent("\(index)-saved.\(suffix)").path
        _ = try Pipesh.run(["--virtual-time", "-c", "draw \(pipeline) to: \"\(picture)\""])
        let written = try Pipesh.run(["-c", "draw \"\(file)\" to: \"\(saved)\""])
        #expect(written.status == 0 && written.stdout.hasPrefix("draw: wrote \(saved) ("), "\(written.stderr)")
        let run = try String(contentsOfFile: picture, encoding: .utf8)
        let fromTrace = try String(contentsOfFile: saved, encoding: .utf8)
        if suffix == "svg" {
          // The same picture under its own title, which names the trace.
          #expect(Self.untitled(run) == Self.untitled(fromTrace), "\(pipeline)")
          #expect(fromTrace.contains("draw &quot;\(file)&quot;: a saved trace of "), "\(pipeline)")
        } else {
          #expect(fromTrace.contains("<svg"), "\(pipeline)")
          #expect(fromTrace.contains("<title>pipesh: draw \(file)</title>"), "\(pipeline)")
        }
      }
    }
    // A trace written before traces said which node built which still draws.
    let old = directory.appendingPathComponent("old.trace").path
    try [
      "{\"pipesh\":\"trace\",\"version\":1,\"pipeline\":\"p\",\"clock\":\"virtual\",\"labels\":[\"from 1\",\"flatMap { from $0 }\"]}",
      "{\"ns\":0,\"job\":1,\"node\":1,\"label\":\"from 1\",\"event\":\"element\",\"value\":\"1\"}",
      "{\"ns\":0,\"job\":1,\"node\":9,\"label\":\"from $0 ($0 = 1)\",\"event\":\"element\",\"value\":\"1\"}",
      "{\"ns\":0,\"job\":1,\"node\":2,\"label\":\"flatMap { from $0 }\",\"event\":\"element\",\"value\":\"1\"}",
    ].joined(separator: "\n").write(toFile: old, atomically: true, encoding: .utf8)
    let oldDrawn = try Pipesh.run(["-c", "draw \"\(old)\""])
    #expect(oldDrawn.status == 0)
    #expect(oldDrawn.stdout.split(separator: "\n").map { $0.prefix(3) } == ["   ", "fro", "fro", "fla"])
    // A written print has its lane; so has one in a trace written before traces said a sink was
    // implicit (no "implicitSink": false).
    let written = directory.appendingPathComponent("written.trace").path
    _ = try Pipesh.run(["--virtual-time", "-c", "trace from 1 | print to: \"\(written)\""])
    let writtenDrawn = try Pipesh.run(["-c", "draw \"\(written)\""])
    #expect(writtenDrawn.stdout.split(separator: "\n").map { $0.prefix(5) } == ["     ", "from ", "print"])
    // In a recording of a session, each job says whether its sink is implicit.
    let script = directory.appendingPathComponent("sinks.pipe")
    try "from 1 2\nfrom 3 | print\n".write(to: script, atomically: true, encoding: .utf8)
    let recording = directory.appendingPathComponent("sinks.trace").path
    _ = try Pipesh.run(["--virtual-time", "--record", recording, script.path])
    let recordingDrawn = try Pipesh.run(["-c", "draw \"\(recording)\""])
    #expect(
      recordingDrawn.stdout.split(separator: "\n").map { $0.prefix(9) } == [
        "         ", "[1] from ", "[2] from ", "[2] print",
      ],
      "\(recordingDrawn.stdout)")
    let empty = directory.appendingPathComponent("empty.trace").path
    try "{\"pipesh\":\"trace\",\"version\":1,\"pipeline\":\"x\",\"clock\":\"real\",\"labels\":[]}\n".write(
      toFile: empty, atomically: true, encoding: .utf8)
    let nothing = try Pipesh.run(["-c", "draw \"\(empty)\""])
    #expect(nothing.status == 1 && nothing.stderr.contains("has no node events to draw"))
  }

  /// A trace larger than a script may be (16 MiB) is read: trace P to: writes files up to 256 MiB
  /// (a 23 MB trace of 70,000 elements was refused). Output lines, which draw leaves out, make it
  /// large without making it slow to draw.
  @Test func aTraceLargerThan16MiBIsRead() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("large.trace").path
    var text =
      "{\"pipesh\":\"trace\",\"version\":1,\"pipeline\":\"from 1\",\"clock\":\"virtual\",\"labels\":[\"from 1\"]}\n"
      + "{\"ns\":0,\"job\":1,\"node\":1,\"label\":\"from 1\",\"event\":\"element\",\"value\":\"1\"}\n"
    let output = String(repeating: "y", count: 200)
    for ns in 0..<90_000 { text += "{\"ns\":\(ns),\"job\":1,\"event\":\"output\",\"text\":\"\(output)\"}\n" }
    #expect(text.utf8.count > 17 << 20)
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let drawn = try Pipesh.run(["-c", "draw \"\(file)\""])
    #expect(drawn.stderr == "")
    #expect(drawn.status == 0)
    #expect(drawn.stdout == "         1s\nfrom 1   1\n")
  }

  /// A file that is not a saved trace is an error at its place, with what to do; nothing is shown.
  @Test func aBrokenFileSaysWhere() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cases: [(String, String, String)] = [
      ("", "1:1: error: the file is empty", ""),
      ("hello\n", "1:1: error: expected a JSON object", "hello"),
      (
        "{\"pipesh\":\"trace\",\"version\":1,\"pipeline\":\"x\",\"clock\":\"virtual\",\"labels\":[\"a\"]}\n"
          + "{\"ns\":1.5,\"job\":1,\"node\":1,\"label\":\"a\",\"event\":\"start\"}\n",
        "2:8: error: expected a whole number", "       ^"
      ),
      (
        "{\"pipesh\":\"trace\",\"version\":1,\"pipeline\":\"x\",\"clock\":\"virtual\",\"labels\":[\"a\"]}\n"
          + "{\"ns\":1,\"job\":1,\"node\":1,\"label\":\"a\",\"event\":\"jumped\"}\n",
        "2:1: error: unknown event \"jumped\"", "^"
      ),
      ("{\"pipesh\":\"other\"}\n", "1:1: error: not a pipesh trace", "^"),
      ("{\"a\":\"\\q\"}\n", "1:8: error: unknown escape '\\q'", "       ^"),
      (
        "{\"pipesh\":\"trace\",\"version\":1,\"pipeline\":\"x\",\"clock\":\"virtual\",\"labels\":[\"a\"]}\n"
          + "{\"ns\":1,\"job\":1,\"node\":1,\"label\":\"a\",\"parent\":2,\"event\":\"start\"}\n",
        "2:1: error: expected \"rank\" to be a whole number", "^"
      ),
    ]
    for (index, (text, message, caret)) in cases.enumerated() {
      let file = directory.appendingPathComponent("\(index).trace").path
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      let result = try Pipesh.run(["-c", "replay \"\(file)\""])
      #expect(result.status == 1, "\(text)")
      #expect(result.stdout.isEmpty, "\(text)")
      #expect(result.stderr.hasPrefix("\(file):\(message)"), "\(text): \(result.stderr)")
      #expect(result.stderr.contains("\n\(caret)"), "\(text): \(result.stderr)")
      #expect(result.stderr.contains("note: a trace file is what trace PIPELINE to: \"F.trace\" writes"))
    }
    let missing = try Pipesh.run(["-c", "replay \"\(directory.path)/none.trace\""])
    #expect(missing.status == 1 && missing.stderr.contains("give a file that trace PIPELINE to: \"F.trace\" wrote"))
  }
}
