import Dispatch
import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs statements: the same code serves the interactive shell, script files, `-c` and stdin.
public final class Shell: @unchecked Sendable {
  // @unchecked: the mutable fields are used only by the one task that runs statements; signal
  // handlers and job-end handlers touch only `foreground`, `anyFailed` and `interrupted`, which are locked.

  public let console: Console
  public let jobs: JobTable
  public let session = Session()
  public let interactive: Bool
  public var virtualTime: Bool
  var environment = Environment()
  /// The session's virtual clock, made when the first virtual-time job starts. The shell holds it
  /// while it runs statements and releases it while it waits.
  private let driverBox = Locked<VirtualDriver?>(nil)
  private var sessionDriver: VirtualDriver? { driverBox.withLock { $0 } }
  /// Lines said in this session, for `history`; the line editor keeps its own.
  public var historyProvider: (@Sendable () -> [String])?
  /// Set by `quit`/`exit`.
  public private(set) var quitRequested = false

  private let foreground = Locked<Job?>(nil)
  private let anyFailed = Atomic<Bool>(false)
  private let interrupted = Atomic<Bool>(false)
  /// Set while `wait` or `send` waits, so Ctrl-C can stop the waiting.
  private let waitingTask = Locked<Task<Void, Never>?>(nil)

  deinit {
    sessionDriver?.finish()
  }

  /// The clock for the next job.
  var clockChoice: ClockChoice {
    guard virtualTime else { return .real }
    if let sessionDriver { return .virtual(sessionDriver) }
    let driver = VirtualDriver()
    driver.hold()
    driver.start()
    driverBox.withLock { $0 = driver }
    return .virtual(driver)
  }

  /// Lets the session clock move while `body` waits for the virtual world, and holds it again
  /// afterwards. `body` must make one wait: a shell task resumed from the driver pauses it, so a
  /// second wait inside would never end.
  public func releasingClock(_ body: () async -> Void) async {
    sessionDriver?.release()
    await body()
    sessionDriver?.hold()
  }

  /// Runs `body` in a task on the session's virtual clock when there is one, so what it resumes
  /// (a consumer waiting on a channel) stays in the virtual world; inline otherwise. The task is
  /// made while the clock is paused, then the clock runs until the task ends and pauses it again
  /// on the driver, so time cannot move on before the shell is back.
  public func onClock(_ body: @escaping @Sendable () async -> Void) async {
    guard let driver = sessionDriver else { return await body() }
    let task = Task(executorPreference: driver) {
      await body()
      driver.hold()
    }
    driver.release()
    await task.value
    driver.hold()
  }

  /// Waits for each job in turn, letting the session clock run meanwhile.
  public func waitForAll(_ jobs: [Job]) async {
    for job in jobs { await awaitJob(job) }
  }

  /// Waits for a job with the session clock running; the job pauses the clock as it ends.
  public func awaitJob(_ job: Job) async {
    job.pausesClockOnEnd()
    await releasingClock { await job.wait() }
  }

  /// Reads input with the session clock running, so background virtual-time jobs go on meanwhile.
  public func whileReading<T>(_ read: () async -> T) async -> T {
    sessionDriver?.release()
    defer { sessionDriver?.hold() }
    return await read()
  }

  public init(console: Console, interactive: Bool, virtualTime: Bool) {
    self.console = console
    self.interactive = interactive
    self.virtualTime = virtualTime
    self.jobs = JobTable(console: console, session: session)
    jobs.setOnEnd { [weak self] job in self?.jobEnded(job) }
  }

  /// Whether a job failed at run time in this session.
  public var hadFailure: Bool { anyFailed.load(ordering: .relaxed) }
  public var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

  private func jobEnded(_ job: Job) {
    if job.state == .failed { anyFailed.store(true, ordering: .relaxed) }
    if job.background && interactive {
      console.line("[\(job.id)] \(Self.endNotice(job))")
    } else if job.state == .failed, let failure = job.failure {
      console.line("error: [\(job.id)] \(failure)", to: .error)
    }
  }

  /// `finished after 3.0s (20 elements)`, `cancelled after …`, `failed: STAGE: MESSAGE`.
  static func endNotice(_ job: Job) -> String {
    let time = Format.seconds(job.elapsed)
    let count = job.output == 1 ? "1 element" : "\(job.output) elements"
    switch job.state {
    case .failed: return "failed after \(time): \(job.failure?.description ?? "error")"
    case .cancelled: return "cancelled after \(time) (\(count))"
    default: return "\(job.state.rawValue) after \(time) (\(count))"
    }
  }

  // MARK: Ctrl-C

  /// Ctrl-C: cancels the foreground job or stops a `wait`; returns false when nothing was running.
  @discardableResult
  public func interrupt() -> Bool {
    interrupted.store(true, ordering: .relaxed)
    if let waiting = waitingTask.withLock({ $0 }) {
      waiting.cancel()
      return true
    }
    guard let job = foreground.withLock({ $0 }) else { return false }
    job.cancel()
    return true
  }

  public func clearInterrupt() { interrupted.store(false, ordering: .relaxed) }

  // MARK: running text

  /// Runs a whole script: checked as a whole first, nothing runs on an error. Returns the exit status.
  public func runScript(_ source: SourceFile) async -> Int32 {
    await VirtualDriver.asShell { await runScriptForeign(source) }
  }

  private func runScriptForeign(_ source: SourceFile) async -> Int32 {
    let status = await runScriptInline(source)
    if quitRequested || wasInterrupted {
      jobs.cancelAll()
    }
    await waitForAll(jobs.all)
    console.flush()
    if wasInterrupted { return 130 }
    return status != 0 ? status : (hadFailure ? 1 : 0)
  }

  func setQuit() { quitRequested = true }

  /// Checks and runs a script in this shell, leaving its background jobs running (`load`).
  func runScriptInline(_ source: SourceFile) async -> Int32 {
    let script = Parser.parse(source)
    let (statements, checkedEnvironment, diagnostics) = Checker.check(script, in: environment)
    if !diagnostics.isEmpty {
      report(diagnostics, in: source)
      return 2
    }
    environment = checkedEnvironment
    for statement in statements {
      await execute(statement, source: source)
      if quitRequested || wasInterrupted { break }
    }
    return 0
  }

  /// Parses, checks and runs one line typed at the prompt; statements before an error still run.
  public func runLine(_ text: String) async {
    await VirtualDriver.asShell { await runLineForeign(text) }
  }

  private func runLineForeign(_ text: String) async {
    let source = SourceFile(name: nil, text: text)
    let script = Parser.parse(source)
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
      await execute(checked, source: source)
      if quitRequested { return }
    }
  }

  /// Parses and checks a script without running it: `pipesh --check`.
  public static func check(_ source: SourceFile) -> [Diagnostic] {
    Checker.check(Parser.parse(source), in: Environment()).diagnostics
  }

  func report(_ diagnostics: [Diagnostic], in source: SourceFile) {
    let text = DiagnosticFormatter.render(diagnostics, in: source)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      console.line(String(line), to: .error)
    }
  }

  // MARK: statements

  /// `PIPESH_TIMING=1`: after each statement, `timing: MS ms rss KB kB: STATEMENT` on stderr,
  /// for the benchmarks.
  static let timing = getenv("PIPESH_TIMING") != nil

  func execute(_ statement: CheckedStatement, source: SourceFile) async {
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

  /// The process's resident memory, from /proc/self/status.
  static func residentKilobytes() -> Int {
    guard let status = readFile("/proc/self/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ")[1]) ?? 0
    }
    return 0
  }

  private func executeUntimed(_ statement: CheckedStatement, source: SourceFile) async {
    switch statement {
    case .run(let pipeline, let background):
      let job = jobs.start(pipeline, background: background, clock: clockChoice)
      if background {
        if interactive { console.line("[\(job.id)] \(pipeline.text)") }
      } else {
        await runForeground(job)
      }
    case .binding:
      break  // the checker has put it in the environment
    case .command(let command, let range):
      await execute(command, range: range, source: source)
    }
  }

  func runForeground(_ job: Job) async {
    foreground.withLock { $0 = job }
    await awaitJob(job)
    foreground.withLock { $0 = nil }
    if interactive, job.state == .cancelled {
      // After the terminal's own "^C".
      console.line("\n[\(job.id)] \(Self.endNotice(job))")
    }
  }

  /// Runs `body` so that Ctrl-C cancels it (and not the jobs it waits for).
  func interruptibly(_ body: @escaping @Sendable () async -> Void) async {
    let task = Task { await VirtualDriver.asShell(body) }
    waitingTask.withLock { $0 = task }
    await task.value
    waitingTask.withLock { $0 = nil }
  }
}
