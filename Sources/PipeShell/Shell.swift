import Dispatch
import Locking
import PipeExport
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

/// Runs statements: the same code serves the interactive shell, script files, `-c` and stdin.
public final class Shell: @unchecked Sendable {
  // @unchecked: the mutable fields are used only by the one task that runs statements; signal
  // handlers and job-end handlers touch only `foreground`, `anyFailed` and `interrupted`, which are locked.

  public let console: Console
  public let jobs: JobTable
  public let session = Session()
  public let interactive: Bool
  /// Whether runs of synchronous stages become one node (`PIPESH_FUSION=off`: never).
  let fusing: Bool
  public var virtualTime: Bool
  var environment = Commands.environment
  /// The session's virtual clock, made when the first virtual-time job starts. It runs only while
  /// the shell waits for something (`waitFor`), and stands still while the shell runs statements.
  private let driverBox = Locked<VirtualDriver?>(nil)
  /// Lines said in this session, for `history`; the line editor keeps its own.
  public var historyProvider: (@Sendable () -> [String])?
  /// Set by `quit`/`exit`.
  public private(set) var quitRequested = false

  private let foreground = Locked<Job?>(nil)
  private let anyFailed = Atomic<Bool>(false)
  /// A `load` found errors before running: the script's status is 2.
  private let loadFailed = Atomic<Bool>(false)
  /// How deep `load` is nested: a script that loads itself stops at `maximumLoadDepth`.
  var loadDepth = 0
  static let maximumLoadDepth = 16
  private let interrupted = Atomic<Bool>(false)
  /// Ctrl-Cs so far: a wait is stopped by one that came after its statement began.
  private let interrupts = Atomic<Int>(0)
  /// `interrupts` when the current statement began.
  private let interruptsAtStatement = Atomic<Int>(0)
  /// The wait Ctrl-C stops: a foreground job, `wait`, `send`, `sleep`.
  private let waitingTask = Locked<Task<Void, Never>?>(nil)

  deinit {
    close()
  }

  /// Ends the session's clock; its thread goes once its last task has ended.
  public func close() {
    driverBox.withLock { driver in
      driver?.shutdown()
      driver = nil
    }
  }

  /// The session's virtual clock's time, once it has one.
  var virtualNow: PipeInstant? { driverBox.withLock { $0?.now } }

  /// The clock for the next job: the real one, or the session's virtual clock.
  var nextClock: ClockChoice {
    guard virtualTime else { return .real }
    return .virtual(
      driverBox.withLock { driver in
        if let driver { return driver }
        let made = VirtualDriver()
        driver = made
        return made
      })
  }

  /// Waits until `body` returns. Meanwhile `clock` (by default the session's virtual clock, if
  /// there is one) runs, and stops again the moment `body` returns. With `interruptible`, Ctrl-C
  /// cancels `body`'s task (at the prompt, `stopped` then says what stopped). When nothing on the virtual clock can run any more and no deadline is
  /// due (and no real-clock job could change that), what `body` waits for can never happen: a
  /// deadlock. Then `onDeadlock` says what waits on what (on the clock's thread), the session's
  /// status becomes 1, and `body`'s task is cancelled.
  func waitFor(
    on clock: VirtualDriver? = nil, runningClock: Bool = true, interruptible: Bool = true,
    onDeadlock: (@Sendable () -> Void)? = nil, since baseline: Int? = nil, stopped: String? = nil,
    _ body: @escaping @Sendable () async -> Void
  ) async {
    let interruptsBefore = baseline ?? interruptsAtStatement.load(ordering: .relaxed)
    let operation: @Sendable () async -> Void
    // The task, and whether a deadlock came before it was stored here (it is cancelled then).
    let waiting = Locked<(task: Task<Void, Never>?, deadlocked: Bool)>((nil, false))
    if runningClock, let driver = clock ?? driverBox.withLock({ $0 }) {
      var onStall: (@Sendable () -> Void)?
      if let onDeadlock {
        onStall = { [self] in
          // A job on the real clock may still send or end: not a deadlock.
          guard jobs.running.allSatisfy({ $0.context.clock.driver != nil }) else { return }
          anyFailed.store(true, ordering: .relaxed)
          onDeadlock()
          waiting.withLock { waiting in
            waiting.deadlocked = true
            return waiting.task
          }?.cancel()
        }
      }
      let stalled = onStall
      operation = { await driver.run(until: body, onStall: stalled) }
    } else {
      operation = body
    }
    let task = Task { await operation() }
    let deadlocked = waiting.withLock { waiting in
      waiting.task = task
      return waiting.deadlocked
    }
    if deadlocked { task.cancel() }
    if interruptible {
      waitingTask.withLock { $0 = task }
      // A script that was interrupted waits for nothing more.
      if interrupts.load(ordering: .relaxed) != interruptsBefore || (!interactive && wasInterrupted) { task.cancel() }
    }
    await task.value
    if interruptible { waitingTask.withLock { $0 = nil } }
    // At the prompt, Ctrl-C's end of a wait is said on a line of its own, after the terminal's "^C".
    if let stopped, interactive, interrupts.load(ordering: .relaxed) != interruptsBefore,
      !waiting.withLock({ $0.deadlocked })
    {
      console.line("\n" + stopped, to: .error)
    }
  }

  /// Why a wait on the virtual clock is a deadlock, the end of every deadlock message.
  static let nothingCanRun = "every job waits and no timer is due"

  /// Where running jobs wait: `job 1 waits at 'channel c of: Int', job 2 waits at 'never'`
  /// (without `job N` for one job when `naming` is false).
  func waitingPlaces(_ jobs: [Job], naming: Bool = true) -> String {
    jobs.filter { $0.state == .running }.map { job in
      let places = Self.waitingNodes(job.nodes).map { "'\($0)'" }
      let subject = naming ? "job \(job.id) waits" : "waits"
      return places.isEmpty ? subject : subject + " at " + places.joined(separator: " and ")
    }.joined(separator: ", ")
  }

  /// The running nodes a job waits at: sources that wait for something outside the job (a
  /// channel, `never`) and `into` sinks waiting for a consumer.
  private static func waitingNodes(_ nodes: [Node]) -> [String] {
    var places: [String] = []
    for (index, node) in nodes.enumerated() {
      for input in node.inputs { places += waitingNodes(input) }
      for child in node.children?.all ?? [] { places += waitingNodes(child) }
      guard node.state == .running else { continue }
      let waitsOutside = node.detail?.hasSuffix("Channel") == true || node.text == "never"
      if index == 0 && waitsOutside { places.append(node.text) }
      if node.isSink && node.text.hasPrefix("into ") { places.append(node.text) }
    }
    return places
  }

  /// Runs synchronous work that asks `Task.isCancelled` now and then (compare's Combine side) in a
  /// task of its own, which Ctrl-C cancels; the session's clock stands still meanwhile.
  func interruptibly<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    let task = Task { work() }
    await waitFor(runningClock: false) {
      await withTaskCancellationHandler {
        _ = await task.value
      } onCancel: {
        task.cancel()
      }
    }
    return await task.value
  }

  /// Waits for each job in turn; `deadlock` names the wait when it is one (`wait`).
  public func waitForAll(
    _ jobs: [Job], interruptible: Bool = true, deadlock: String? = nil, stopped: String? = nil
  ) async {
    var onDeadlock: (@Sendable () -> Void)?
    if let deadlock {
      onDeadlock = { [self] in
        console.line(
          "error: \(deadlock): \(waitingPlaces(jobs)) while \(Self.nothingCanRun)", to: .error)
      }
    }
    let reported = onDeadlock
    await waitFor(interruptible: interruptible, onDeadlock: reported, stopped: stopped) {
      for job in jobs {
        await job.wait()
        if Task.isCancelled { return }
      }
    }
  }

  /// Does `action` where the session's virtual world lives (on its clock's thread), and returns
  /// when it is done; inline when there is no virtual clock.
  func changeWorld(_ action: @escaping @Sendable () -> Void) async {
    guard let driver = driverBox.withLock({ $0 }) else { return action() }
    await driver.perform(andWait: action)
  }

  /// Reads input with the session clock running, so background virtual-time jobs go on meanwhile.
  public func whileReading<T: Sendable>(_ read: @escaping @Sendable () async -> T) async -> T {
    guard let driver = driverBox.withLock({ $0 }) else { return await read() }
    return await driver.run(until: read)
  }

  public init(console: Console, interactive: Bool, virtualTime: Bool, fusing: Bool = Instrumentation.fusion) {
    self.console = console
    self.fusing = fusing
    self.interactive = interactive
    self.virtualTime = virtualTime
    self.jobs = JobTable(console: console, session: session)
    jobs.setOnEnd { [weak self] job in self?.jobEnded(job) }
  }

  /// Reports a command that could not do what it was asked (`wait 99`): the script's status is 1.
  func commandFailed(_ message: String) {
    anyFailed.store(true, ordering: .relaxed)
    console.line("error: " + message, to: .error)
  }

  /// Reports a `load` whose file could not be read or checked: the script's status is 2.
  func loadFailed(_ message: String?) {
    loadFailed.store(true, ordering: .relaxed)
    if let message { console.line("error: " + message, to: .error) }
  }

  /// Whether a job failed at run time in this session.
  public var hadFailure: Bool { anyFailed.load(ordering: .relaxed) }
  public var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

  private func jobEnded(_ job: Job) {
    if job.state == .failed { anyFailed.store(true, ordering: .relaxed) }
    if job.background && interactive {
      console.line("[\(job.id)] \(Self.endNotice(job))")
    } else if job.state == .failed, let failure = job.failure {
      console.line(DiagnosticFormatter.visible("error: [\(job.id)] \(failure)"), to: .error)
    }
  }

  /// `finished after 3.0s (20 elements)`, `cancelled after …`, `failed: STAGE: MESSAGE`.
  static func endNotice(_ job: Job) -> String {
    let time = job.elapsed.secondsText
    let count = job.output == 1 ? "1 element" : "\(job.output) elements"
    switch job.state {
    case .failed: return "failed after \(time): \(job.failure?.description ?? "error")"
    case .cancelled: return "cancelled after \(time) (\(count))"
    default: return "\(job.state.rawValue) after \(time) (\(count))"
    }
  }

  // MARK: Ctrl-C

  /// Ctrl-C: cancels the foreground job and stops what the shell waits for; returns false when
  /// nothing was running.
  @discardableResult
  public func interrupt() -> Bool {
    interrupted.store(true, ordering: .relaxed)
    interrupts.add(1, ordering: .relaxed)
    let job = foreground.withLock { $0 }
    job?.cancel()
    let waiting = waitingTask.withLock { $0 }
    waiting?.cancel()
    return job != nil || waiting != nil
  }

  public func clearInterrupt() { interrupted.store(false, ordering: .relaxed) }

  // MARK: running text

  /// Runs a whole script: checked as a whole first, nothing runs on an error. Returns the exit status.
  public func runScript(_ source: SourceFile) async -> Int32 {
    let status = await runScriptInline(source)
    // Ctrl-C stops this wait for the background jobs too, and so does a deadlock; they are
    // cancelled then, and end promptly.
    if !(quitRequested || wasInterrupted) { await waitForAll(jobs.all, deadlock: "deadlock at the end of the script") }
    if quitRequested || wasInterrupted || !jobs.running.isEmpty {
      jobs.cancelAll()
    }
    await waitForAll(jobs.all, interruptible: false)
    console.flush()
    if wasInterrupted { return 130 }
    if status != 0 { return status }
    if loadFailed.load(ordering: .relaxed) { return 2 }
    return hadFailure ? 1 : 0
  }

  func setQuit() { quitRequested = true }

  /// Checks and runs a script in this shell, leaving its background jobs running (`load`).
  func runScriptInline(_ source: SourceFile) async -> Int32 {
    let script = Parser.parse(source, grammar: Commands.grammar)
    let (statements, checkedEnvironment, diagnostics) = Checker.check(script, in: environment)
    if !diagnostics.isEmpty {
      report(diagnostics, in: source)
      return 2
    }
    environment = checkedEnvironment
    session.willFail(environment.failingChannels)
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
    let script = Parser.parse(source, grammar: Commands.grammar)
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
      await execute(checked, source: source, since: since)
      since = nil
      if quitRequested { return }
    }
  }

  /// Parses and checks a script without running it: `pipesh --check`.
  public static func check(_ source: SourceFile) -> [Diagnostic] {
    Checker.check(Parser.parse(source, grammar: Commands.grammar), in: Commands.environment).diagnostics
  }

  func report(_ diagnostics: [Diagnostic], in source: SourceFile) {
    let text = DiagnosticFormatter.render(diagnostics, in: source, colour: Paint.isOn(for: 2))
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      console.line(String(line), to: .error)
    }
  }

  // MARK: statements

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

  /// The process's resident memory, from /proc/self/status.
  static func residentKilobytes() -> Int {
    guard case .success(let status) = TextFile.read("/proc/self/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ")[1]) ?? 0
    }
    return 0
  }

  private func executeUntimed(_ statement: CheckedStatement, source: SourceFile) async {
    switch statement {
    case .run(let pipeline, let background):
      let job = jobs.start(pipeline, background: background, clock: nextClock, fusing: fusing)
      if background {
        if interactive { console.line("[\(job.id)] \(pipeline.text)") }
      } else {
        await runForeground(job)
      }
    case .binding:
      break  // the checker has put it in the environment
    case .command(let command, _):
      guard let run = Commands.named(command.name)?.run else {
        return commandFailed("pipesh has no command '\(command.name)' to run (a bug: please report it)")
      }
      await run(self, command.arguments)
    }
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
    await waitFor(on: clock, onDeadlock: reported) { await job.wait() }
    // Interrupted: wait for the cancelled job to end, unless Ctrl-C comes again.
    if job.state == .running {
      await waitFor(on: clock, since: interrupts.load(ordering: .relaxed)) { await job.wait() }
    }
    foreground.withLock { $0 = nil }
    if interactive, job.state == .cancelled {
      // After the terminal's own "^C".
      console.line("\n[\(job.id)] \(Self.endNotice(job))")
    }
  }
}

extension Shell {
  /// `pipesh --emit-swift`: checks the script as a whole and prints its Swift program; the
  /// status is 2 when it does not check or cannot be exported.
  public static func emitSwift(_ source: SourceFile, console: Console) -> Int32 {
    let script = Parser.parse(source, grammar: Commands.grammar)
    let (statements, environment, diagnostics) = Checker.check(script, in: Commands.environment)
    guard diagnostics.isEmpty else {
      FileOutput.error(DiagnosticFormatter.render(diagnostics, in: source, colour: Paint.isOn(for: 2)))
      return 2
    }
    switch SwiftExport.program(statements, environment: environment, source: source) {
    case .success(let output):
      if !output.warnings.isEmpty {
        FileOutput.error(DiagnosticFormatter.render(output.warnings, in: source, colour: Paint.isOn(for: 2)))
      }
      for line in output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        console.line(String(line))
      }
      console.flush()
      return 0
    case .failure(let problem):
      FileOutput.error(DiagnosticFormatter.render([problem], in: source, colour: Paint.isOn(for: 2)))
      return 2
    }
  }
}
