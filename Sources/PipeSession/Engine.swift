import Dispatch
import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import Synchronization
import VirtualTime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the engine's lines go: standard output or standard error. The shell's `Console` is the
/// one that reaches the terminal, a pipe or a file; a test collects them.
public enum ConsoleStream: Sendable {
  case output
  case error
}

/// What the engine writes to: the jobs' output, and its own lines (notices, errors, deadlocks).
public protocol SessionConsole: JobOutput {
  /// Writes one line (a newline is added) to `stream`.
  func line(_ text: String, to stream: ConsoleStream)
  /// Writes `diagnostics` of `source` to standard error; how they look (colour on a terminal) is
  /// the console's to decide: by default, as they are.
  func report(_ diagnostics: [Diagnostic], in source: SourceFile)
}

extension SessionConsole {
  /// Writes one line to standard output.
  public func line(_ text: String) { line(text, to: .output) }

  public func report(_ diagnostics: [Diagnostic], in source: SourceFile) {
    report(diagnostics, in: source, decorator: PlainDiagnosticDecorator())
  }

  /// Writes `diagnostics` rendered with `decorator` to standard error, a line at a time.
  public func report(_ diagnostics: [Diagnostic], in source: SourceFile, decorator: any DiagnosticDecorator) {
    let text = DiagnosticFormatter.render(diagnostics, in: source, decorator: decorator)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      self.line(String(line), to: .error)
    }
  }
}

/// Runs a shell command the checker has read: the shell's commands, which the engine does not know.
public struct CommandRunner: Sendable {
  /// What runs a pipeline in place of a job (`Engine.drawForegroundPipelines(with:)`).
  public typealias Pipelines = @Sendable (CheckedPipeline) async -> Void

  public let run: @Sendable (CheckedCommand) async -> Void

  public init(_ run: @escaping @Sendable (CheckedCommand) async -> Void) {
    self.run = run
  }
}

/// The engine under the shell: a session's environment, jobs and share fragments, and the one path
/// every statement takes (parse, check, execute) from the prompt, `-c`, a script, stdin or `load`;
/// the clock policy (a session's virtual clock runs only while the engine waits), deadlock
/// detection, and the end of a script. It knows nothing of terminals: what it says goes to its
/// `SessionConsole`, and the shell's commands reach it as a `CommandRunner`.
public final class Engine: Sendable {
  public let console: any SessionConsole
  let jobs: JobTable
  let session = Session()
  public let interactive: Bool
  /// Whether runs of synchronous stages become one node (`PIPESH_FUSION=off`: never).
  public let fusing: Bool

  /// What statements change as they run, behind one lock: only the task that runs statements
  /// writes them, and views read them.
  private struct State {
    public var environment: Environment
    public var virtualTime: Bool
    /// Set by `quit`/`exit`.
    public var quitRequested = false
    /// How deep `load` is nested: a script that loads itself stops at `maximumLoadDepth`.
    public var loadDepth = 0
    public var commands: CommandRunner?
    /// `pipesh --page`: what a foreground pipeline statement does instead of running as a job.
    public var foregroundDrawer: CommandRunner.Pipelines?
  }

  private let state: Locked<State>

  /// The names, channels and commands statements are checked against; each statement's adds to it.
  public var environment: Environment {
    get { state.withLock { $0.environment } }
    set { state.withLock { $0.environment = newValue } }
  }

  /// Whether the next job runs on the session's virtual clock (`--virtual-time`, `clock virtual`).
  public var virtualTime: Bool {
    get { state.withLock { $0.virtualTime } }
    set { state.withLock { $0.virtualTime = newValue } }
  }

  /// How deep `load` is nested now.
  public var loadDepth: Int {
    get { state.withLock { $0.loadDepth } }
    set { state.withLock { $0.loadDepth = newValue } }
  }

  public static let maximumLoadDepth = 16

  /// Set by `quit`/`exit`.
  public var quitRequested: Bool { state.withLock { $0.quitRequested } }

  public func setQuit() { state.withLock { $0.quitRequested = true } }

  /// The session's virtual clock, made when the first virtual-time job starts. It runs only while
  /// the engine waits for something (`waitFor`), and stands still while it runs statements.
  let driverBox = Locked<VirtualDriver?>(nil)

  let foreground = Locked<Job?>(nil)
  /// The recorded events of the last watched jobs (`draw`, `trace`, `--record`), for `why`.
  let histories = Locked<(byJob: [Int: DrawObserver], order: [Int], watched: Set<Int>)>(([:], [], []))
  let anyFailed = Atomic<Bool>(false)
  /// A `load` found errors before running: the script's status is 2.
  private let loadFailed = Atomic<Bool>(false)
  private let interrupted = Atomic<Bool>(false)
  /// Ctrl-Cs so far: a wait is stopped by one that came after its statement began.
  let interrupts = Atomic<Int>(0)
  /// `interrupts` when the current statement began.
  let interruptsAtStatement = Atomic<Int>(0)

  /// Whether Ctrl-C came since the statement running now began (`explore` stops between orders).
  public var interruptedInThisStatement: Bool {
    interrupts.load(ordering: .relaxed) > interruptsAtStatement.load(ordering: .relaxed)
  }
  /// The wait Ctrl-C stops: a foreground job, `wait`, `send`, `sleep`.
  let waitingTask = Locked<Task<Void, Never>?>(nil)

  /// Step mode: whether background jobs on the session's virtual clock are watched (from the first
  /// step, or from the start of a script that steps), and whether the clock is held.
  struct SteppingState {
    var watching = false
    var held = false
  }

  let stepping = Locked(SteppingState())
  /// What step mode sees of the watched jobs.
  let stepLog = StepLog()
  /// The command being run, with its source: a run-time error of it points at it.
  /// Jobs whose end is another command's to judge (`expect … fails "M"`): their failure is not
  /// reported, and does not fail the script.
  let quietJobs = Locked<Set<Int>>([])
  let runningCommand = Locked<(command: CheckedCommand, source: SourceFile)?>(nil)

  deinit {
    close()
  }

  /// Ends the session's clock; its thread goes once its last task has ended, and this waits for
  /// that (a few seconds at most), so `--stats` counts what is left after it, the same every run.
  public func close() {
    let driver = driverBox.withLock { driver in
      defer { driver = nil }
      return driver
    }
    driver?.shutdown(waiting: .seconds(5))
  }

  /// The session's virtual clock's time, once it has one.
  public var virtualNow: PipeInstant? { driverBox.withLock { $0?.now } }

  /// The session's virtual clock, made now if it has none yet; nil on the real clock.
  public var sessionDriver: VirtualDriver? {
    if case .virtual(let driver) = nextClock { driver } else { nil }
  }

  /// The clock for the next job: the real one, or the session's virtual clock.
  package var nextClock: ClockChoice {
    guard virtualTime else { return .real }
    return .virtual(
      driverBox.withLock { driver in
        if let driver { return driver }
        let made = VirtualDriver(runsKnownCode: true)
        driver = made
        return made
      })
  }

  /// An engine whose statements are checked against `environment` (the operators and the shell's
  /// commands); `commands` runs the commands.
  public init(
    console: any SessionConsole, environment: Environment, interactive: Bool, virtualTime: Bool,
    fusing: Bool = Instrumentation.fusion
  ) {
    self.console = console
    self.fusing = fusing
    self.interactive = interactive
    self.state = Locked(State(environment: environment, virtualTime: virtualTime))
    self.jobs = JobTable(console: console, session: session)
    jobs.setOnEnd { [weak self] job in self?.jobEnded(job) }
  }

  /// Sets what runs the shell's commands.
  public func setCommands(_ runner: CommandRunner) {
    state.withLock { $0.commands = runner }
  }

  /// `pipesh --page`: every foreground pipeline statement is handed to `drawer` (which draws it)
  /// instead of running as a job; background ones run as usual, and the script's end cancels
  /// those that would run for ever rather than waiting for them.
  public func drawForegroundPipelines(with drawer: @escaping CommandRunner.Pipelines) {
    state.withLock { $0.foregroundDrawer = drawer }
  }

  /// Whether this is `pipesh --page`'s run (`drawForegroundPipelines(with:)`).
  var pageRun: Bool { state.withLock { $0.foregroundDrawer != nil } }

  /// What runs the shell's commands (`setCommands`).
  var commands: CommandRunner? { state.withLock { $0.commands } }

  /// What a foreground pipeline statement does instead of running (`drawForegroundPipelines(with:)`).
  var foregroundDrawer: CommandRunner.Pipelines? { state.withLock { $0.foregroundDrawer } }

  /// Reports a command that could not do what it was asked (`wait 99`): the script's status is 1.
  public func commandFailed(_ message: String) {
    anyFailed.store(true, ordering: .relaxed)
    console.line("error: " + message, to: .error)
  }

  /// Reports a command that could not do what it was asked at run time, pointing at its argument
  /// `argument` (by index; nil or out of range: the whole command): the script's status is 1.
  public func commandFailed(_ message: String, at argument: Int?) {
    guard let (command, source) = runningCommand.withLock({ $0 }) else { return commandFailed(message) }
    let range = argument.flatMap { command.argumentRanges.indices.contains($0) ? command.argumentRanges[$0] : nil }
    runFailed([Diagnostic(id: .commandFailed, message: message, range: range ?? command.range)], in: source)
  }

  /// Reports a command that failed at run time with a diagnostic of its own, its range in the
  /// running command's source (`validate`'s first difference, under the output diagram).
  public func commandFailed(_ diagnostic: Diagnostic) {
    guard let (_, source) = runningCommand.withLock({ $0 }) else { return commandFailed(diagnostic.message) }
    runFailed([diagnostic], in: source)
  }

  /// Where the command running now is written: its file's name, line and column.
  public var runningCommandLocation: (file: String?, line: Int, column: Int)? {
    guard let (command, source) = runningCommand.withLock({ $0 }) else { return nil }
    let location = source.location(of: command.range.start)
    return (source.name, location.line, location.column)
  }

  /// Reports problems found in a file read at run time (a saved trace): the script's status is 1.
  public func runFailed(_ diagnostics: [Diagnostic], in source: SourceFile) {
    anyFailed.store(true, ordering: .relaxed)
    report(diagnostics, in: source)
  }

  /// Reports a `load` whose file could not be read or checked: the script's status is 2.
  public func loadFailed(_ message: String?) {
    loadFailed.store(true, ordering: .relaxed)
    if let message { console.line("error: " + message, to: .error) }
  }

  /// Whether a job failed at run time in this session.
  public var hadFailure: Bool { anyFailed.load(ordering: .relaxed) }
  /// Whether a `load` found errors before running.
  var loadHadErrors: Bool { loadFailed.load(ordering: .relaxed) }
  var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

  private func jobEnded(_ job: Job) {
    if quietJobs.withLock({ $0.remove(job.id) != nil }) { return }
    if job.state == .failed { anyFailed.store(true, ordering: .relaxed) }
    if job.background && interactive {
      console.line("[\(job.id)] \(Self.endNotice(job))")
    } else if job.state == .failed, let failure = job.failure {
      console.line(DiagnosticFormatter.visible("error: [\(job.id)] \(failure)"), to: .error)
    }
    // Said when it happens: the job ended late because a node of it ignored its cancellation, or
    // it ended and left tasks behind.
    for lint in Lints.ignoredCancellation(job) + Lints.leftBehind(job) {
      console.line(DiagnosticFormatter.visible("warning: [\(job.id)] \(lint.kind.rawValue): \(lint.why)"), to: .error)
    }
  }

  /// `finished after 3.0s (20 elements)`, `cancelled after …`, `failed: STAGE: MESSAGE`.
  package static func endNotice(_ job: Job) -> String {
    let time = job.elapsed.secondsText
    let count = job.output == 1 ? "1 element" : "\(job.output) elements"
    switch job.state {
    case .failed: return "failed after \(time): \(job.failure?.description ?? "error")"
    case .cancelled: return "cancelled after \(time) (\(count))"
    case .running, .finished: return "\(job.state.rawValue) after \(time) (\(count))"
    }
  }

  // MARK: Ctrl-C

  /// Ctrl-C: cancels the foreground job and stops what the shell waits for; returns false when
  /// nothing was running.
  @discardableResult
  public func interrupt() -> Bool {
    let wasInterruptedBefore = interrupted.exchange(true, ordering: .relaxed)
    let count = interrupts.add(1, ordering: .relaxed).newValue
    // A script already stopping that is interrupted again ends now: a job that ignores its
    // cancellation (work … cooperative: false) must not keep the user from the shell.
    if !interactive, wasInterruptedBefore {
      console.flush()
      _exit(130)
    }
    let job = foreground.withLock { $0 }
    job?.cancel()
    // A script ends on Ctrl-C: its jobs are cancelled now, from this thread, so a job that never
    // gives its virtual clock's thread back (an endless loop over `random`) sees it and stops.
    if !interactive { jobs.cancelAll() }
    let waiting = waitingTask.withLock { $0 }
    waiting?.cancel()
    let again = interactive ? "Ctrl-C again gives the prompt back (the job goes on)" : "Ctrl-C again quits now"
    // Said at the first Ctrl-C of a statement; the second does what it says.
    if count == interruptsAtStatement.load(ordering: .relaxed) + 1 {
      sayWhatIgnoresTheCancel(interactive ? job.map { [$0] } ?? [] : jobs.running, again: again)
    }
    return job != nil || waiting != nil
  }

  /// After a cancel: the cancelled jobs that go on because a node of theirs ignores cancellation,
  /// and `again`, how to stop waiting for them.
  package func sayWhatIgnoresTheCancel(_ cancelled: [Job], again: String) {
    for job in cancelled where job.state == .running {
      // Only a node inside such a wait now: one cancelled before it began its wait stops at once.
      let waiting = job.context.ignoringWaits
      let stubborn = Node.flattened(job.nodes).filter { waiting.contains($0.id) }
      guard !stubborn.isEmpty else { continue }
      let names = stubborn.map(\.text).joined(separator: ", ")
      console.line(
        "\npipesh: [\(job.id)] is cancelled but still runs: \(names) ignores cancellation and ends only when its wait does; \(again)",
        to: .error)
    }
  }

  public func clearInterrupt() { interrupted.store(false, ordering: .relaxed) }
}
