import Dispatch
import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import Platform
import Synchronization
import VirtualTime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Running one checked statement: a pipeline as a job, a binding, a command.
extension Engine {
  /// `PIPESH_TIMING=1`: after each statement, `timing: MS ms rss KB kB: STATEMENT` on stderr,
  /// for the benchmarks.
  static let timing = getenv("PIPESH_TIMING") != nil

  func execute(_ statement: CheckedStatement, source: SourceFile, since: Int? = nil) async {
    interruptsAtStatement.store(since ?? interrupts.load(ordering: .relaxed), ordering: .relaxed)
    defer { console.flush() }
    guard Self.timing else { return await executeUntimed(statement, source: source) }
    let start = ContinuousClock.now
    await executeUntimed(statement, source: source)
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    let text: String =
      switch statement {
      case .run(let pipeline, _): pipeline.text
      case .binding(let binding): "let \(binding.name)"
      case .command(_, let range): source.text(of: range)
      }
    console.line("timing: \(milliseconds) ms rss \(Self.residentKilobytes()) kB: \(text)", to: .error)
  }

  /// The process's resident memory (`Platform.residentKilobytes`).
  static func residentKilobytes() -> Int {
    Platform.residentKilobytes
  }

  private func executeUntimed(_ statement: CheckedStatement, source: SourceFile) async {
    // On the virtual clock a statement runs once everything due at this instant has happened, as
    // on the real clock: each job started has run to its first wait, each tick due now has come.
    if let driver = driverBox.withLock({ $0 }) {
      cancelJobsThatNeverWait(on: driver)
      // Ctrl-C stops the settling, and the statement then does not run.
      let before = interruptsAtStatement.load(ordering: .relaxed)
      await waitFor(runningClock: false) { await driver.settle() }
      if interrupts.load(ordering: .relaxed) != before { return }
    }
    switch statement {
    case .run(let pipeline, let background):
      if !background, pipeline.hasImplicitSink, pipeline.stages.count == 2,
        let source = pipeline.stages.first?.operation, source.facts.endsWhenClosed
      {
        // Written as one declares a variable: say what it is before it waits.
        console.line(
          "note: '\(pipeline.stages[0].text)' is a source, not a declaration: this job prints what is sent "
            + "until it is closed or cancelled (Ctrl-C); to read it in the background: \(pipeline.text) | print &",
          to: .error)
      }
      if !background, let drawer = foregroundDrawer { return await drawer(pipeline) }
      await run(pipeline, background: background)
    case .binding:
      break  // the checker has put it in the environment
    case .command(let command, _):
      guard let commands else {
        return commandFailed("pipesh has no commands to run '\(command.name)' with (a bug: please report it)")
      }
      let outer = runningCommand.withLock { running in
        defer { running = (command, source) }
        return running
      }
      await commands.run(command)
      runningCommand.withLock { $0 = outer }
    }
  }

  /// Starts a job for `pipeline` on the session's clock as a statement does (a command that starts
  /// one calls this): in the background, said at the prompt as `[N] PIPELINE`; in the foreground,
  /// waited for. `observer` sees its nodes' events (`trace`). Returns the job.
  @discardableResult
  package func run(
    _ pipeline: CheckedPipeline, background: Bool, observer: (any NodeObserver)? = nil
  ) async -> Job {
    // A watched job keeps its events for `why` (watched, it records demand too): by a trace or a
    // draw, a recorded session, or step mode.
    let watched = observer != nil || jobs.recorder.withLock({ $0 }) != nil
    // Made only for a watched job: every other job would keep one for nothing.
    let history = Locked<DrawObserver?>(watched ? DrawObserver() : nil)
    var both = observer
    if let kept = history.withLock({ $0 }) { both = observer.map { ObserverPair($0, kept) } ?? kept }
    let clock = nextClock
    let job = jobs.start(
      pipeline, background: background, clock: clock, observer: both, fusing: fusing,
      watcher: { [self] id in
        guard let step = stepObserver(for: pipeline, background: background, clock: clock, job: id) else { return nil }
        if watched { return step }
        let stepped = DrawObserver()
        history.withLock { $0 = stepped }
        return ObserverPair(step, stepped)
      })
    if let kept = history.withLock({ $0 }) { keep(kept, of: job.id) }
    if background {
      if interactive { console.line("[\(job.id)] \(pipeline.text)") }
    } else {
      await runForeground(job)
    }
    return job
  }

  /// Runs a job in the foreground: the statement ends when the job has ended. Ctrl-C cancels it;
  /// a second Ctrl-C stops waiting for a job that does not end.
  func runForeground(_ job: Job, on clock: VirtualDriver? = nil) async {
    foreground.withLock { $0 = job }
    // A job on the real clock may wait for something outside: only a virtual one can deadlock.
    var onDeadlock: (@Sendable () -> Void)?
    if job.context.clock.driver != nil {
      onDeadlock = { [self] in
        console.line(
          "error: [\(job.id)] deadlock: \(waitingPlaces([job], naming: false)) while \(Self.nothingCanRun): cancelled",
          to: .error)
        job.cancel()
      }
    }
    let reported = onDeadlock
    let atStart = interruptsAtStatement.load(ordering: .relaxed)
    await waitFor(on: clock, onDeadlock: reported) { await job.wait() }
    // Interrupted: wait for the cancelled job to end, unless Ctrl-C comes again. Counted from the
    // first Ctrl-C, not from now: a second one that came while the first wait was ending counts.
    if job.state == .running {
      let afterTheFirst = min(atStart + 1, interrupts.load(ordering: .relaxed))
      await waitFor(on: clock, since: afterTheFirst) { await job.wait() }
    }
    foreground.withLock { $0 = nil }
    if interactive, job.state == .cancelled {
      // After the terminal's own "^C".
      console.line("\n[\(job.id)] \(Self.endNotice(job))")
    }
  }
}
