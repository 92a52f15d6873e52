import Dispatch
import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import Synchronization
import VirtualTime

/// Running text: a script, a script inside a session (`load`), a line typed at the prompt, and the
/// diagnostics of text that does not check.
extension Engine {
  /// Runs a whole script: checked as a whole first, nothing runs on an error. Returns the exit status.
  public func runScript(_ source: SourceFile) async -> Int32 {
    let status = await runScriptInline(source)
    // A step pending at the end of the script: the clock is let go, as `run` does, and the jobs go
    // on to their ends as a script's background jobs do.
    letClockRun()
    // Ctrl-C stops this wait for the background jobs too, and so does a deadlock; they are
    // cancelled then, and end promptly.
    if !(quitRequested || wasInterrupted) { await waitForTheScriptsJobs() }
    if quitRequested || wasInterrupted || !jobs.running.isEmpty {
      jobs.cancelAll()
    }
    await waitForAll(jobs.all, interruptible: false)
    // What the jobs' ends set going at this instant (a share's task letting its upstream go) runs
    // before the script ends, so `--stats` counts the same in every run.
    await driverBox.withLock({ $0 })?.settle()
    console.flush()
    if wasInterrupted { return 130 }
    if status != 0 { return status }
    if loadHadErrors { return 2 }
    return hadFailure ? 1 : 0
  }

  /// Checks and runs a script in this shell, leaving its background jobs running (`load`).
  public func runScriptInline(_ source: SourceFile) async -> Int32 {
    let (statements, checkedEnvironment, diagnostics) = Self.parseAndCheck(source, in: environment)
    if !diagnostics.isEmpty {
      report(diagnostics, in: source)
      return 2
    }
    environment = checkedEnvironment
    session.willFail(environment.failingChannels)
    session.declare(environment.endpoints)
    // A script that steps watches its jobs from its start, so its first step can step any of them.
    if statements.contains(where: {
      if case .command(let command, _) = $0 { command.signature.watchesJobsFromStart } else { false }
    }) {
      beginStepping()
    }
    for statement in statements {
      if quitRequested || wasInterrupted { break }
      await execute(statement, source: source)
    }
    return 0
  }

  /// Ctrl-Cs so far (`runLine`'s `interruptsBefore`).
  public var interruptCount: Int { interrupts.load(ordering: .relaxed) }

  /// Parses, checks and runs one line typed at the prompt; statements before an error still run.
  /// `interruptsBefore`, the Ctrl-Cs counted when the line was read: one that comes between reading
  /// the line and the start of its first statement's wait stops that wait, rather than being lost.
  public func runLine(_ text: String, interruptsBefore: Int? = nil) async {
    var since = interruptsBefore
    let source = SourceFile(name: nil, text: text)
    let script = Parser.parse(source, grammar: environment.grammar)
    if !script.diagnostics.isEmpty {
      report(script.diagnostics, in: source)
      return
    }
    for statement in script.statements {
      var checker = Checker(environment: environment, source: source)
      guard let checked = checker.check(statement), checker.diagnostics.isEmpty else {
        report(checker.diagnostics, in: source)
        return
      }
      environment = checker.environment
      session.willFail(environment.failingChannels)
      session.declare(environment.endpoints)
      await execute(checked, source: source, since: since)
      since = nil
      if quitRequested { return }
    }
  }

  /// Parses and checks a whole script in `environment`: its statements, the environment after
  /// them, and what is wrong (nothing of a script with errors runs). Scripts, `-c`, `load`,
  /// `--check` and `--emit-swift` read text this way; the prompt reads a line statement by
  /// statement (`runLine`).
  public static func parseAndCheck(
    _ source: SourceFile, in environment: Environment
  ) -> (statements: [CheckedStatement], environment: Environment, diagnostics: [Diagnostic]) {
    Checker.check(Parser.parse(source, grammar: environment.grammar), in: environment)
  }

  /// Parses and checks a script in `environment` without running it: `pipesh --check`.
  public static func check(_ source: SourceFile, in environment: Environment) -> [Diagnostic] {
    parseAndCheck(source, in: environment).diagnostics
  }

  /// Says what is wrong with `source`, on the console's standard error.
  public func report(_ diagnostics: [Diagnostic], in source: SourceFile) {
    console.report(diagnostics, in: source)
  }
}
