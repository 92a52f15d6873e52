import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat

extension Commands {
  /// `step [N] [until: D]`: step mode on the session's virtual clock (`Engine.step`); `run` lets
  /// go of it. While a saved trace is being stepped (`replay "F.trace" step: true`), it steps
  /// that instead.
  struct Step: ShellCommand {
    static let signature = CommandSignature(
      "step", .optionalJob(label: CommandOptions.untilLabel), usage: "step [N] [until: D]",
      summary:
        "on the virtual clock: holds the clock, runs it to the next instant at which something happens for job N (any job without N) and prints what happened there, as trace prints it; until: D runs it to the time D (as trace stamps it), printing everything on the way; then the clock stays held (between statements, and at the prompt while you type) until run; jobs to step are started with & after a step (a script that steps watches all of its jobs from the start)",
      watchesJobsFromStart: true)
    static let example = HelpExample("timer 1 | take 2 | print &\nstep\nstep\nstep 1 until: 3\nrun")
    let job: Int?
    let until: Duration?

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.optionalJob().map { Self(job: $0.job, until: $0.until) }
    }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      if let replay = shell.replaySteps { return replay.step(job, until: until, shell) }
      let printers = StepPrinters(shell)
      switch await shell.engine.step(job, until: until, showing: printers) {
      case .failure(let refusal): shell.engine.commandFailed(refusal.message, at: refusal.argument)
      case .success(.stopped): break
      case .success(.shown):
        if printers.shown == 0, let until {
          let whose = job.map { " for job \($0)" } ?? ""
          shell.console.line("step: nothing happened\(whose) until \(until.stampText)")
        }
      case .success(.nothingRuns(let now)):
        shell.console.line(
          "step: no job runs; the virtual clock is held at \(now.stampText): a job started with & now waits "
            + "for step (run lets the clock go)")
      case .success(.never(let why)):
        shell.console.line("step: nothing will happen: \(why)")
      case .success(.quiet(let end)):
        let whose = job.map { " for job \($0)" } ?? ""
        shell.console.line(
          "step: nothing happened\(whose) in the next \(Engine.stepWindow.secondsText) (a step looks that far): the clock stands at \(end.stampText); step again to look further"
        )
      case .success(.stalled(let places)):
        shell.console.line("step: nothing more can happen: \(places) while \(Engine.nothingCanRun)")
      }
    }
  }
}

/// The lines of a step, as `trace` prints them: each job's aligned to its own stages.
final class StepPrinters: TraceWatcher {
  private let shell: Shell
  private let printers = Locked<[Int: TraceObserver]>([:])
  private let count = Locked(0)

  /// How many lines it has shown.
  var shown: Int { count.withLock { $0 } }

  init(_ shell: Shell) {
    self.shell = shell
  }

  func node(time: Duration, job: Int, label: String, _ kind: TraceFile.EventKind) {
    printer(of: job).node(time: time, job: job, label: label, kind)
  }

  func task(time: Duration, job: Int, task: Int, label: String, _ kind: TraceFile.TaskEventKind) {
    printer(of: job).task(time: time, job: job, task: task, label: label, kind)
  }

  /// The printer of job `id`'s lines, aligned to its stages; each line it is asked for is counted.
  private func printer(of id: Int) -> TraceObserver {
    let printer = printers.withLock { printers in
      if let printer = printers[id] { return printer }
      let made = TraceObserver(console: shell.console, labels: shell.engine.stepLabels(of: id))
      printers[id] = made
      return made
    }
    count.withLock { $0 += 1 }
    return printer
  }
}

/// A saved trace being stepped (`replay "F.trace" step: true`): the events not shown yet.
final class ReplaySteps: Sendable {
  private let path: String
  private let printer: ReplayPrinter
  private let left: Locked<ArraySlice<TraceFile.Event>>

  init(path: String, events: [TraceFile.Event], printer: ReplayPrinter) {
    self.path = path
    self.printer = printer
    left = Locked(events[...])
  }

  /// Shows the first instant's events; false when the trace has none.
  func start(_ shell: Shell) -> Bool {
    step(nil, until: nil, shell)
    return shell.replaySteps === self
  }

  /// Shows the events of the next instant at which job N (any job) has one, or every one up to
  /// `until`; the events of other jobs passed on the way are not shown, as a live step shows only
  /// the job it steps.
  func step(_ job: Int?, until: Duration?, _ shell: Shell) {
    // Refused as a live step refuses: a job the trace does not have, a time already passed.
    let (hasJob, shown) = (
      left.withLock { left in job.map { id in left.contains { $0.job == id } } ?? true }, at.withLock { $0 }
    )
    if !hasJob, let job {
      return shell.engine.commandFailed(
        "step: the rest of \(path) has no event of job \(job) (run shows the rest)", at: 0)
    }
    if let until, let shown, until < shown {
      return shell.engine.commandFailed(
        "step: the replay is at \(shown.stampText), past \(until.stampText): give a later time", at: job == nil ? 0 : 1)
    }
    let taken = left.withLock { left -> [TraceFile.Event] in
      var taken: [TraceFile.Event] = []
      var instant: Duration?
      while let event = left.first {
        if let until, event.time > until { break }
        if until == nil, let instant, event.time != instant { break }
        left.removeFirst()
        taken.append(event)
        if until == nil, instant == nil, Self.counts(event, for: job) { instant = event.time }
      }
      return taken
    }
    for event in taken where Self.counts(event, for: job) || Self.isJob(event) { printer.show(event) }
    if let last = taken.last?.time { at.withLock { $0 = max($0 ?? last, last) } }
    endIfDone(shell)
  }

  /// The time of the last event shown.
  private let at = Locked<Duration?>(nil)

  /// `run`: the rest at once.
  func finish(_ shell: Shell) {
    let rest = left.withLock { left in
      defer { left = [] }
      return Array(left)
    }
    for event in rest { printer.show(event) }
    endIfDone(shell)
  }

  private func endIfDone(_ shell: Shell) {
    guard left.withLock({ $0.isEmpty }) else { return }
    shell.replaySteps = nil
    shell.console.line("replay: the end of \(path)")
  }

  /// Whether an event is one a step of `job` shows (a job's start line shows nothing).
  private static func counts(_ event: TraceFile.Event, for job: Int?) -> Bool {
    !isJob(event) && (job == nil || event.job == job)
  }

  private static func isJob(_ event: TraceFile.Event) -> Bool {
    if case .job = event.what { return true }
    return false
  }
}
