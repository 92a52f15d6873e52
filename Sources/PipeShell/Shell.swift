import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

/// The shell around the engine: the console it writes to, the commands it runs (each a thin
/// adapter over the engine, in `Commands`), and what a person needs beside them (the line
/// editor's history, the page of `pipesh --html`). Running statements, jobs, the clock and
/// waiting are the engine's (`PipeSession`).
public final class Shell: Sendable {
  public let engine: Engine
  public let console: Console

  private struct Extras {
    var historyProvider: (@Sendable () -> [String])?
    var report: Report?
    var replaySteps: ReplaySteps?
    var page: SourceFile?
    var presentFeed: PresentFeed?
  }

  /// What became of the session's expectations: `pipesh -v` and `--expectations FILE` read it.
  public let expectations = ExpectationLog()

  private let extras = Locked(Extras())

  /// Lines said in this session, for `history`; the line editor keeps its own.
  public var historyProvider: (@Sendable () -> [String])? {
    get { extras.withLock { $0.historyProvider } }
    set { extras.withLock { $0.historyProvider = newValue } }
  }

  /// `pipesh --html`: the page the script's output and pictures go to.
  public var report: Report? {
    get { extras.withLock { $0.report } }
    set { extras.withLock { $0.report = newValue } }
  }

  /// `pipesh --page`: the script, whose `marble "…"` lanes its pictures annotate for editing.
  var page: SourceFile? {
    get { extras.withLock { $0.page } }
    set { extras.withLock { $0.page = newValue } }
  }

  /// `pipesh serve --present`: where what the session shows also goes, for the browsers watching.
  public var presentFeed: PresentFeed? {
    get { extras.withLock { $0.presentFeed } }
    set { extras.withLock { $0.presentFeed = newValue } }
  }

  /// A saved trace being stepped (`replay "F.trace" step: true`): `step` and `run` go to it.
  var replaySteps: ReplaySteps? {
    get { extras.withLock { $0.replaySteps } }
    set { extras.withLock { $0.replaySteps = newValue } }
  }

  public init(console: Console, interactive: Bool, virtualTime: Bool, fusing: Bool = Engine.fusesByDefault) {
    self.console = console
    engine = Engine(
      console: console, environment: Environment.pipesh, interactive: interactive, virtualTime: virtualTime,
      fusing: fusing)
    engine.setCommands(CommandRunner { [weak self] command in await self?.run(command) })
  }

  /// Runs a checked command. The session's checker reads commands with `Commands.table` alone, so
  /// each is one of the shell's; one that is not is pipesh's bug, reported, never guessed at.
  private func run(_ command: CheckedCommand) async {
    guard let shellCommand = command.command as? any ShellCommand else {
      return engine.commandFailed("pipesh has no run for '\(command.name)' (a bug: please report it)")
    }
    await shellCommand.run(in: self)
  }

  /// Parses and checks a script without running it: `pipesh --check`.
  public static func check(_ source: SourceFile) -> [Diagnostic] {
    Engine.check(source, in: Environment.pipesh)
  }
}

/// The expectations a session checked, in order; with `verbose`, a holding one says so.
public final class ExpectationLog: Sendable {
  private struct State {
    var verbose = false
    var outcomes: [ExpectationOutcome] = []
  }
  private let state = Locked(State())

  /// `pipesh -v`: a line for each expectation that holds.
  public var verbose: Bool {
    get { state.withLock { $0.verbose } }
    set { state.withLock { $0.verbose = newValue } }
  }

  public var outcomes: [ExpectationOutcome] { state.withLock { $0.outcomes } }

  func record(_ outcome: ExpectationOutcome) {
    state.withLock { $0.outcomes.append(outcome) }
  }
}
