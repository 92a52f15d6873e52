import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import VirtualTime

/// Step mode's record of what happens: the node events of the background jobs on the session's
/// virtual clock that it watches. While a step runs, the events of the jobs it steps go to its
/// `show` as they come (the trace's lines, in order with the jobs' output); while the clock is held
/// between steps, the events of the instant the clock stands at are kept for the next step (those
/// of a job that just started, or was just cancelled).
final class StepLog: NodeObserver {
  /// A step in progress: the job it steps (nil: every job) and where its events go.
  private struct Showing {
    let job: Int?
    let show: @Sendable (TracedEvent) -> Void
  }

  private struct State {
    /// Whether events not shown are kept (the clock is held).
    var keeping = false
    /// Events not shown yet, by job: those of the last instant at which the job had any.
    var pending: [Int: [TracedEvent]] = [:]
    var showing: Showing?
    /// Whether the step in progress has shown an event.
    var shown = false
    /// The step waiting for its first event, or for the news that none can come.
    var waiter: UnsafeContinuation<Void, Never>?
    /// Watched jobs, with the labels their lines are aligned to.
    var labels: [Int: [String]] = [:]
  }

  private let state = Locked(State())
  /// The most events of one instant kept for one job.
  static let maximumKept = 10_000

  func watch(job: Int, labels: [String]) {
    state.withLock { $0.labels[job] = labels }
  }

  func watches(job: Int) -> Bool { state.withLock { $0.labels[job] != nil } }

  func labels(of job: Int) -> [String] { state.withLock { $0.labels[job] ?? [] } }

  func setKeeping(_ keeping: Bool) {
    state.withLock { state in
      state.keeping = keeping
      if !keeping { state.pending.removeAll() }
    }
  }

  func record(_ event: NodeEvent) { traced(.node(event)) }

  func task(_ event: TaskEvent) { traced(.task(event)) }

  private func traced(_ event: TracedEvent) {
    let (show, waiter) = state.withLock {
      state -> ((@Sendable (TracedEvent) -> Void)?, UnsafeContinuation<Void, Never>?) in
      if let showing = state.showing, showing.job == nil || showing.job == event.jobID {
        state.shown = true
        defer { state.waiter = nil }
        return (showing.show, state.waiter)
      }
      guard state.keeping else { return (nil, nil) }
      // What happened at an earlier instant was lived while another statement ran the clock.
      if let last = state.pending[event.jobID]?.last, last.time != event.time { state.pending[event.jobID] = nil }
      if state.pending[event.jobID, default: []].count < Self.maximumKept {
        state.pending[event.jobID, default: []].append(event)
      }
      return (nil, nil)
    }
    show?(event)
    waiter?.resume()
  }

  /// The events of `job` (every job: nil) not shown yet that happened at `now`, in the order they
  /// came; they count as shown.
  func takePending(_ job: Int?, now: Duration) -> [TracedEvent] {
    state.withLock { state in
      let jobs = job.map { [$0] } ?? state.pending.keys.sorted()
      var taken: [TracedEvent] = []
      for job in jobs {
        taken += (state.pending.removeValue(forKey: job) ?? []).filter { $0.time == now }
      }
      // Several jobs' events, in the order they came: each job's are in order, and they interleave
      // by the order the nodes recorded them, which one sequence number would keep; by time (all
      // equal here) and job is the stable order available.
      return taken
    }
  }

  /// Shows the events of `job` (every job: nil) as they come, until `stopShowing`.
  func startShowing(_ job: Int?, _ show: @escaping @Sendable (TracedEvent) -> Void) {
    state.withLock { state in
      state.showing = Showing(job: job, show: show)
      state.shown = false
    }
  }

  func stopShowing() {
    let waiter = state.withLock { state in
      state.showing = nil
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Returns once the step in progress has shown an event, or `wake` says none can come, or the
  /// calling task is cancelled.
  func firstEvent() async {
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let done = state.withLock { state -> Bool in
          if state.shown || Task.isCancelled { return true }
          state.waiter = continuation
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      wake()
    }
  }

  /// Whether the step in progress has shown nothing yet.
  var shownNothing: Bool { state.withLock { !$0.shown } }

  /// Ends the wait for a first event.
  func wake() {
    let waiter = state.withLock { state in
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}

/// Why a `step` cannot run: said at the command, pointing at `argument` (its index) or at the
/// whole command (nil).
public struct StepRefusal: Error, Sendable {
  public let message: String
  public let argument: Int?
}

/// What a `step` did.
public enum StepReport: Sendable {
  /// It showed what happened at the instant the clock now stands at.
  case shown
  /// No job runs to step: the clock is held where it stands.
  case nothingRuns(at: Duration)
  /// Nothing more can happen for the jobs it steps (they wait for a send, or for nothing): where
  /// they wait.
  case stalled(String)
  /// Ctrl-C stopped it.
  case stopped
  /// Nothing can ever happen for the jobs it steps by themselves: why (the clock did not move).
  case never(String)
  /// Nothing happened for the jobs it steps in the window a step searches: the clock stands at
  /// its end.
  case quiet(until: Duration)
}

/// Step mode (`step`, `run`): the session's virtual clock held between statements and while a line
/// is read, moved an instant at a time.
extension Engine {
  /// Whether step holds the session's clock: then it moves only while a statement waits (a step, a
  /// `sleep`, a foreground job, `wait`), never while a line is read.
  public var clockHeld: Bool { stepping.withLock { $0.held } }

  /// From now on every background job started on the session's virtual clock is watched by step
  /// mode, and the clock is held. A script that steps does this before it starts.
  func beginStepping() {
    stepping.withLock { state in
      state.watching = true
      state.held = true
    }
    stepLog.setKeeping(true)
  }

  /// `run`: the clock is let go; what was kept for a step is forgotten. Jobs stay watched, so a
  /// later step can step them.
  public func letClockRun() {
    stepping.withLock { $0.held = false }
    stepLog.setKeeping(false)
  }

  /// The observer a job started now gets from step mode: the log, for a background job on the
  /// session's virtual clock while jobs are watched.
  func stepObserver(
    for pipeline: CheckedPipeline, background: Bool, clock: ClockChoice, job: Int
  ) -> (any NodeObserver)? {
    guard background, stepping.withLock({ $0.watching }), case .virtual(let driver) = clock,
      driver === driverBox.withLock({ $0 })
    else { return nil }
    stepLog.watch(job: job, labels: Inspector.labels(pipeline))
    return stepLog
  }

  /// The labels a stepped job's lines are aligned to (its stages', as `trace` aligns them).
  public func stepLabels(of job: Int) -> [String] { stepLog.labels(of: job) }

  /// `step [N] [until: D]`: holds the clock, shows what happened at the current instant for job N
  /// (every job) if a step has not shown it yet; else runs the clock to the next instant at which
  /// something happens for it, or to the session time `until`, showing every event on the way
  /// through `show` as it comes, and completes that instant.
  public func step(
    _ jobID: Int?, until: Duration?, showing watcher: any TraceWatcher
  ) async -> Result<StepReport, StepRefusal> {
    let told = WatcherObserver(watcher)
    let show: @Sendable (TracedEvent) -> Void = { told.tell($0) }
    let untilArgument = jobID == nil ? 0 : 1
    let session = driverBox.withLock { $0 }
    guard let driver = session ?? (virtualTime ? nextClock.driver : nil) else {
      return .failure(
        StepRefusal(
          message: "step: the clock is real; step moves the virtual clock (clock virtual, or pipesh --virtual-time)",
          argument: nil))
    }
    var stepped: [Job]
    if let jobID {
      guard let job = jobs.job(jobID) else {
        return .failure(StepRefusal(message: "step: no job \(jobID)", argument: 0))
      }
      guard job.context.clock.driver === driver else {
        return .failure(
          StepRefusal(message: "step: job \(jobID) runs on the real clock; step moves the virtual clock", argument: 0))
      }
      guard stepLog.watches(job: jobID) else {
        let why = job.background ? "started before stepping began" : "a foreground job"
        return .failure(
          StepRefusal(
            message: "step: job \(jobID) is \(why), so step does not see its events; start it with & after a step "
              + "(a step holds the clock, so it waits)",
            argument: 0))
      }
      stepped = [job]
    } else {
      stepped = jobs.running.filter { $0.context.clock.driver === driver && stepLog.watches(job: $0.id) }
    }
    let now = driver.now.offset
    if let until, until <= now {
      return .failure(
        StepRefusal(
          message: "step: the clock is at \(now.stampText) already; until: is a time on it, as trace stamps it",
          argument: untilArgument))
    }
    beginStepping()
    let pending = stepLog.takePending(jobID, now: now)
    for event in pending { show(event) }
    if until == nil, !pending.isEmpty { return .success(.shown) }
    if let job = stepped.first, jobID != nil, job.state != .running {
      return .failure(StepRefusal(message: "step: job \(job.id) has ended: \(Self.endNotice(job))", argument: 0))
    }
    if until == nil, stepped.isEmpty { return .success(.nothingRuns(at: now)) }
    if until == nil, let why = Self.nothingWillHappen(for: stepped) { return .success(.never(why)) }
    let stalled = Locked(false)
    let windowPassed = Locked(false)
    let before = interruptsAtStatement.load(ordering: .relaxed)
    stepLog.startShowing(jobID, show)
    await waitFor(runningClock: false, stopped: "step: stopped (Ctrl-C)") { [stepLog] in
      await driver.run(
        until: {
          if let until {
            try? await driver.sleep(until: PipeInstant(offset: until))
          } else {
            // The first event, or the end of the window a step searches: timers that fire and
            // produce nothing (a chunks every: with no input) would otherwise move time for ever.
            await withTaskGroup(of: Void.self) { group in
              group.addTask { await stepLog.firstEvent() }
              group.addTask {
                let end = PipeInstant(offset: now + Self.stepWindow)
                guard (try? await driver.sleep(until: end, isHorizon: true)) != nil else { return }
                windowPassed.withLock { $0 = true }
              }
              await group.next()
              group.cancelAll()
            }
          }
        },
        onStall: {
          stalled.withLock { $0 = true }
          stepLog.wake()
        })
    }
    let interrupted = interrupts.load(ordering: .relaxed) != before
    // Everything else due at this instant happens too, shown as it comes.
    if !interrupted { await waitFor(runningClock: false) { await driver.settle() } }
    stepLog.stopShowing()
    if interrupted { return .success(.stopped) }
    if windowPassed.withLock({ $0 }), stepLog.shownNothing { return .success(.quiet(until: now + Self.stepWindow)) }
    if stalled.withLock({ $0 }) {
      stepped = stepped.filter { $0.state == .running }
      return .success(.stalled(waitingPlaces(stepped, naming: true)))
    }
    return .success(.shown)
  }
}

extension Engine {
  /// How far a `step` without `until:` looks for the next event before it says none came.
  public static let stepWindow = Duration.seconds(3600)

  /// Why nothing can ever happen for `jobs` by themselves, if so: every source of theirs waits for
  /// nothing that will come (`never`) and none of their nodes acts on a deadline of its own with
  /// nothing to pass on (`timeout` fails the job): their operators' timers (`chunks … every:`)
  /// fire with nothing to pass on. Only a `cancel` ends them.
  static func nothingWillHappen(for jobs: [Job]) -> String? {
    var reasons: [String] = []
    for job in jobs {
      let nodes = Node.flattened(job.nodes)
      let sources = nodes.filter { $0.facts?.flow == .source }
      guard !sources.isEmpty, sources.allSatisfy({ $0.facts?.waitsOn == .forever }),
        !nodes.contains(where: { $0.facts?.kind == .timeout })
      else { return nil }
      let timed = nodes.filter { $0.facts?.waitsOn == .upstreamAndClock }.map { "\($0.text)'s" }
      let timers =
        timed.isEmpty ? "" : " (\(timed.joined(separator: ", ")) waits on the clock end with nothing to pass on)"
      reasons.append(
        "job \(job.id) reads only \(sources.map(\.text).joined(separator: ", ")), which produces nothing, so nothing of it will ever happen\(timers); cancel \(job.id) ends it"
      )
    }
    return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
  }
}

extension ClockChoice {
  /// The virtual clock's driver; nil for the real clock.
  var driver: VirtualDriver? {
    if case .virtual(let driver) = self { return driver }
    return nil
  }
}

extension DiagnosticID {
  /// A command that could not do what it was asked at run time (`step 99`).
  public static let commandFailed = DiagnosticID("command-failed")
}
