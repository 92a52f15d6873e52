import Foundation
import Testing

/// `pipesh serve`: pipesh's side. The server itself (`pipesh-serve`) is tested by ServeTests; here a
/// stand-in the test writes, named by `PIPESH_SERVE`, records what pipesh gives it: its arguments
/// and, with `--present`, the feed on its standard input.
@Suite("pipesh serve: the command and the present feed")
struct ServeCommandTests {
  /// A directory with a stand-in server: `body` is its shell script after `#!/bin/sh`; `$DIR` is
  /// the directory.
  static func standIn(_ body: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-serve-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let server = directory.appendingPathComponent("pipesh-serve")
    try ("#!/bin/sh\nDIR='\(directory.path)'\n" + body + "\n").write(to: server, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: server.path)
    return directory
  }

  static func server(_ directory: URL) -> [String: String] {
    ["PIPESH_SERVE": directory.appendingPathComponent("pipesh-serve").path]
  }

  @Test func aMissingServerIsAUsageErrorSayingHowToBuildIt() throws {
    let result = try Pipesh.run(["serve"], environment: ["PIPESH_SERVE": "/nonexistent/pipesh-serve"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "pipesh serve: /nonexistent/pipesh-serve is missing: build it with swift build -c release --product "
        + "pipesh-serve (swift build --product pipesh-serve beside a debug pipesh), or run Scripts/pipesh serve, "
        + "which builds it\n")
  }

  @Test func aPortOutOfRangeIsAUsageError() throws {
    let result = try Pipesh.run(["serve", "--port", "70000"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: --port takes a port number from 0 to 65535"))
  }

  /// Without --present pipesh becomes the server, which gets pipesh's own absolute path and the port.
  @Test func pipeshBecomesTheServerWithItsPathAndThePort() throws {
    let directory = try Self.standIn(
      "echo \"pipesh serve: http://127.0.0.1:4321/\"; echo \"$@\" > \"$DIR/arguments\"; echo $$ > \"$DIR/pid\"")
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try Pipesh.run(["serve", "--port", "0"], environment: Self.server(directory))
    #expect(result.status == 0)
    #expect(result.stdout == "pipesh serve: http://127.0.0.1:4321/\n")
    let arguments = try String(contentsOf: directory.appendingPathComponent("arguments"), encoding: .utf8)
    let words = arguments.split(separator: " ").map(String.init)
    #expect(words.count == 4 && words[0] == "--pipesh" && words[2] == "--port" && words[3] == "0\n")
    #expect(words.count > 1 && words[1].hasPrefix("/") && words[1].hasSuffix("/pipesh"))
  }

  /// `pipesh serve F.trace`: pipesh draws the trace before the server starts, into a file only its
  /// user can read, which it names to the server (the server serves it at /trace and removes it).
  @Test func aTraceIsDrawnForTheServer() throws {
    let directory = try Self.standIn(
      #"printf '%s\n' "$@" > "$DIR/arguments"; page="${5#--trace-page=}"; ls -l "$page" | cut -c1-10 > "$DIR/mode"; "#
        + #"cp "$page" "$DIR/page.html"; rm "$page""#)
    defer { try? FileManager.default.removeItem(at: directory) }
    // A trace whose name starts with `-` (after `--`) is still the trace's name to the server.
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("-search \(getpid()).trace").path
    try FileManager.default.copyItem(
      atPath: ExportTests.root.appendingPathComponent("Examples/SearchField/search.trace").path, toPath: trace)
    defer { unlink(trace) }
    let result = try Pipesh.run(["serve", "--port", "0", "--", trace], environment: Self.server(directory))
    #expect(result.status == 0, "\(result.stderr)")
    let words = try String(contentsOf: directory.appendingPathComponent("arguments"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(words.count == 6 && words[4].hasPrefix("--trace-page=/") && words[5] == "--trace-name=" + trace, "\(words)")
    #expect(try String(contentsOf: directory.appendingPathComponent("mode"), encoding: .utf8) == "-rw-------\n")
    let page = try String(contentsOf: directory.appendingPathComponent("page.html"), encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<title>pipesh: draw \(trace)</title>"))
    for lane in ["results", "queries", "keys", "search"] { #expect(page.contains(">\(lane)<"), "\(lane)") }
  }

  /// A trace that cannot be drawn is an error before anything starts (status 2), as `draw`'s; a
  /// trace goes without --present.
  @Test func aTraceThatCannotBeDrawnStartsNoServer() throws {
    let directory = try Self.standIn(#"echo started > "$DIR/started""#)
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = try Pipesh.run(["serve", "--port", "0", "/nonexistent.trace"], environment: Self.server(directory))
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("error: pipesh serve: cannot read '/nonexistent.trace'"), "\(missing.stderr)")
    let text = directory.appendingPathComponent("notes.trace")
    try "a line of notes\n".write(to: text, atomically: true, encoding: .utf8)
    let notATrace = try Pipesh.run(["serve", "--port", "0", text.path], environment: Self.server(directory))
    #expect(notATrace.status == 2)
    #expect(notATrace.stderr.contains("note: a trace file is what trace PIPELINE to: \"F.trace\" writes"))
    let present = try Pipesh.run(["serve", "--present", "x.trace"], environment: Self.server(directory))
    #expect(present.status == 2)
    #expect(present.stderr.hasPrefix("Error: a trace is served without --present"), "\(present.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("started").path))
  }

  /// A server that ends before its URL (a port in use): its message, and its status.
  @Test func aServerThatEndsBeforeItsURLEndsPipeshWithItsStatus() throws {
    let directory = try Self.standIn(
      "echo 'pipesh serve: port 8080 is in use (try --port 0 for any free port)' >&2; exit 1")
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try Terminal(arguments: ["serve", "--present"], environment: Self.server(directory))
    try terminal.expect("pipesh serve: port 8080 is in use (try --port 0 for any free port)")
    try terminal.expectExit(1)
  }

  /// The feed: each line typed with its prompt, what the session prints, top while a job runs and
  /// once when it has ended, and the picture of a draw; the server sees the feed end with the shell.
  @Test func thePresentedSessionIsFedToTheServer() throws {
    let directory = try Self.standIn(
      """
      echo "pipesh serve: http://127.0.0.1:4321/"
      echo "pipesh serve: presenting this shell's session read-only"
      echo "$@" > "$DIR/arguments"
      cat > "$DIR/feed"
      """)
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try Terminal(arguments: ["serve", "--present"], environment: Self.server(directory))
    try terminal.expect("pipesh serve: http://127.0.0.1:4321/\npipesh serve: presenting this shell's session read-only")
    try terminal.expect("pipesh[0]> ")
    terminal.type("from 1 2 | map { $0 * 10 }\r")
    try terminal.expect("pipesh[0]> ")
    terminal.type("timer 0.4 | take 5 | print label: \"t\" &\r")
    try terminal.expect("pipesh[1]> ")
    terminal.type("wait\r")
    try terminal.expect("pipesh[0]> ")
    terminal.type("draw marble \"ab|\"\r")
    try terminal.expect("pipesh[0]> ")
    let saved = directory.appendingPathComponent("t.trace").path
    terminal.type("trace from 1 to: \"\(saved)\"\r")
    try terminal.expect("trace: wrote \(saved)")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
    let arguments = try String(contentsOf: directory.appendingPathComponent("arguments"), encoding: .utf8)
    #expect(arguments.hasSuffix(" --port 8080 --present\n"))
    let feed = try String(contentsOf: directory.appendingPathComponent("feed"), encoding: .utf8)
    let events = try feed.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
    }
    let inputs = events.filter { $0["type"] == "input" }
    #expect(inputs.first == ["type": "input", "prompt": "pipesh[0]> ", "text": "from 1 2 | map { $0 * 10 }"])
    #expect(inputs.map { $0["text"] ?? "" }.last == "trace from 1 to: \"\(saved)\"")
    let outputs = events.compactMap { $0["type"] == "output" ? $0["text"] : nil }
    #expect(outputs.starts(with: ["10", "20"]))
    #expect(outputs.contains("[2] t: 0"), "\(outputs)")
    #expect(outputs.contains("[2] t: 4"), "\(outputs)")
    #expect(outputs.last == "bye: cancelled 0 running jobs")
    let tops = events.compactMap { $0["type"] == "top" ? $0["text"] : nil }
    #expect(tops.contains { $0.contains("timer 0.4 | take 5") && $0.contains("running") })
    let pictures = events.filter { $0["type"] == "picture" }
    #expect(pictures.map { $0["title"] } == ["draw marble \"ab|\"", "trace from 1"])
    #expect(pictures.first?["svg"]?.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\"") == true)
    // The draw's text lines are output; no colour code reaches the feed.
    #expect(outputs.contains("marble \"ab|\"   ab|"))
    #expect(!feed.contains("\\u001b"))
  }

  /// On a terminal in colour, the feed still has plain text: the prompt's and an error's colour
  /// codes are stripped.
  @Test func theFeedHasNoColourCodes() throws {
    let directory = try Self.standIn(
      "echo \"pipesh serve: http://127.0.0.1:4321/\"; echo \"pipesh serve: presenting\"; cat > \"$DIR/feed\"")
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try Terminal(arguments: ["serve", "--present"], colour: true, environment: Self.server(directory))
    try terminal.expect("]> ")
    terminal.type("from 1 | tak 1\r")
    try terminal.expect("did you mean")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
    #expect(terminal.shown.contains("\u{1B}["))
    let feed = try String(contentsOf: directory.appendingPathComponent("feed"), encoding: .utf8)
    let events = try feed.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
    }
    #expect(events.first == ["type": "input", "prompt": "pipesh[0]> ", "text": "from 1 | tak 1"])
    #expect(events.contains(["type": "output", "text": "error: unknown operator 'tak'"]), "\(events)")
    #expect(!feed.contains("\\u001b"))
  }

  /// Ctrl-C at the prompt cancels the job, not the server: it runs in a process group of its own,
  /// and reads the feed to its end.
  @Test func ctrlCCancelsTheJobNotTheServer() throws {
    let directory = try Self.standIn(
      """
      trap 'echo INT >> "$DIR/signals"' INT
      echo "pipesh serve: http://127.0.0.1:4321/"
      echo "pipesh serve: presenting"
      cat > "$DIR/feed"
      """)
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try Terminal(arguments: ["serve", "--present"], environment: Self.server(directory))
    try terminal.expect("pipesh[0]> ")
    terminal.type("timer 0.1 | print\r")
    try terminal.expect("0\n")
    try terminal.interrupt(until: "cancelled")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("signals").path))
    let feed = try String(contentsOf: directory.appendingPathComponent("feed"), encoding: .utf8)
    #expect(feed.hasSuffix("{\"type\":\"output\",\"text\":\"bye: cancelled 0 running jobs\"}\n"))
  }

  /// A server that is there but no longer reads: the shell never waits on it. Once the pipe is
  /// full and the server has not read for the feed's patience (5 s), presenting stops; at the
  /// end, a server that does not end with its feed is stopped.
  @Test func aServerThatStopsReadingNeverHoldsTheShell() throws {
    let directory = try Self.standIn(
      "echo \"pipesh serve: http://127.0.0.1:4321/\"; echo \"pipesh serve: presenting\"; exec sleep 120")
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try Terminal(arguments: ["serve", "--present"], environment: Self.server(directory))
    try terminal.expect("pipesh[0]> ")
    // More than a pipe holds (64 KB), at once.
    terminal.type("range 1 20000 | map { \"line \\($0)\" }\r")
    try terminal.expect("line 20000\n")
    try terminal.expect("pipesh[0]> ")
    try terminal.expect("pipesh: presenting stopped", within: 30)
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// A server that goes away: the shell says so once, and goes on.
  @Test func theShellGoesOnWhenTheServerGoes() throws {
    let directory = try Self.standIn(
      "echo \"pipesh serve: http://127.0.0.1:4321/\"; echo \"pipesh serve: presenting this shell's session read-only\"")
    defer { try? FileManager.default.removeItem(at: directory) }
    let terminal = try Terminal(arguments: ["serve", "--present"], environment: Self.server(directory))
    try terminal.expect("pipesh[0]> ")
    terminal.type("from 1 2\r")
    try terminal.expect("pipesh: presenting stopped")
    terminal.type("from 3 4\r")
    try terminal.expect("3\n4\n")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
    #expect(terminal.shown.components(separatedBy: "presenting stopped").count == 2)
  }
}
