import Locking
import PipeRuntime
import PipeSema
import PipeSession
import PipeSyntax
import Testing

/// The engine alone, in-process, without a terminal or the shell: what it prints, on which
/// stream, and the status a script ends with.
@Suite("the engine")
struct EngineTests {
  /// Keeps every line the engine and its jobs write.
  final class Lines: SessionConsole {
    let lines = Locked<[String]>([])

    func line(_ text: String, to stream: ConsoleStream) {
      lines.withLock { $0.append(stream == .error ? "! " + text : text) }
    }

    func emit(_ line: String) { lines.withLock { $0.append(line) } }
    func flush() {}
  }

  /// Runs `script` on a fresh engine on the virtual clock; its lines (errors marked `! `) and status.
  func run(_ script: String, commands: CommandTable = CommandTable([], topics: [])) async -> ([String], Int32) {
    let console = Lines()
    let engine = Engine(
      console: console, environment: Environment(commands: commands), interactive: false, virtualTime: true)
    let status = await engine.runScript(SourceFile(name: "t.pipe", text: script))
    engine.close()
    return (console.lines.withLock { $0 }, status)
  }

  @Test func aScriptRunsItsStatementsInOrder() async {
    let (lines, status) = await run("from 1 2 3 | map { $0 * 2 }\nlet t = timer 1 | take 2\nt | print time: true")
    #expect(lines == ["2", "4", "6", "+1.000s 0", "+2.000s 1"])
    #expect(status == 0)
  }

  @Test func aScriptThatDoesNotCheckRunsNothing() async {
    let (lines, status) = await run("from 1 2 | print\nfrom 1 | take x")
    #expect(status == 2)
    #expect(!lines.contains("1"))
    #expect(lines.contains { $0.hasPrefix("! t.pipe:2:") })
  }

  @Test func aForegroundJobWaitingOnAChannelNothingSendsToIsADeadlock() async {
    let (lines, status) = await run("channel c of: Int | take 1 | print")
    #expect(
      lines == [
        "! error: [1] deadlock: waits at 'channel c of: Int' while every job waits and no timer is due: cancelled"
      ])
    #expect(status == 1)
  }

  @Test func aBackgroundJobThatNeverWaitsIsCancelledBeforeTheClockRuns() async {
    let (lines, status) = await run("random 1 10 | drain &\ntimer 1 | take 1 | print")
    #expect(lines.first?.hasPrefix("! error: [1] random 1 10 | drain never waits") == true)
    #expect(lines.last == "0")
    #expect(status == 1)
  }

  @Test func aRecordedRunStopsAtItsHorizon() async throws {
    let engine = Engine(
      console: Lines(), environment: Environment(commands: CommandTable([], topics: [])), interactive: false,
      virtualTime: false)
    let (statements, _, diagnostics) = Engine.parseAndCheck(
      SourceFile(name: nil, text: "timer 1 | map { $0 * 10 }"), in: engine.environment)
    #expect(diagnostics.isEmpty)
    guard case .run(let pipeline, _) = try #require(statements.first) else {
      Issue.record("not a pipeline")
      return
    }
    let run = await engine.recordedRun(pipeline, horizon: .seconds(3))
    #expect(run.stop == .horizon)
    #expect(run.nodes.map(\.text) == ["timer 1", "map { $0 * 10 }"])
    let elements = run.events(for: run.nodes[1]).compactMap { event -> String? in
      if case .element(let value) = event.kind { return "\(event.time) \(value.printed)" }
      return nil
    }
    #expect(elements == ["1.0 seconds 0", "2.0 seconds 10", "3.0 seconds 20"])
    engine.close()
  }

  @Test func commandsReachTheRunnerTheShellGives() async {
    let console = Lines()
    let table = CommandTable([Counted.self], topics: [])
    let engine = Engine(
      console: console, environment: Environment(commands: table), interactive: false, virtualTime: true)
    engine.setCommands(CommandRunner { command in console.line("ran \(command.name)", to: .output) })
    let status = await engine.runScript(SourceFile(name: nil, text: "tally\nfrom 1 | print\ntally"))
    engine.close()
    #expect(console.lines.withLock { $0 } == ["ran tally", "1", "ran tally"])
    #expect(status == 0)
  }
}

/// A command of the test's own: the engine runs commands through the runner it is given, with no
/// command of the shell's.
private struct Counted: CommandDefinition {
  static let signature = CommandSignature("tally", .bare, summary: "a test's command")
  static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
  var reach: CommandReach { .session }
  var export: CommandExport { .own(startsJob: false) }
}
