import Dispatch
import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import Synchronization
import VirtualTime

/// How the engine waits: on the session's clock, for a job, a `send` or a line, stopped by Ctrl-C
/// and by a deadlock on the virtual clock.
extension Engine {
  /// Waits until `body` returns. Meanwhile `clock` (by default the session's virtual clock, if
  /// there is one) runs, and stops again the moment `body` returns. With `interruptible`, Ctrl-C
  /// cancels `body`'s task (at the prompt, `stopped` then says what stopped). When nothing on the virtual clock can run any more and no deadline is
  /// due (and no real-clock job could change that), what `body` waits for can never happen: a
  /// deadlock. Then `onDeadlock` says what waits on what (on the clock's thread), the session's
  /// status becomes 1, and `body`'s task is cancelled.
  public func waitFor(
    on clock: VirtualDriver? = nil, runningClock: Bool = true, interruptible: Bool = true,
    onDeadlock: (@Sendable () -> Void)? = nil, since baseline: Int? = nil, stopped: String? = nil,
    _ body: @escaping @Sendable () async -> Void
  ) async {
    let interruptsBefore = baseline ?? interruptsAtStatement.load(ordering: .relaxed)
    let operation: @Sendable () async -> Void
    // The task, and whether a deadlock came before it was stored here (it is cancelled then).
    let waiting = Locked<(task: Task<Void, Never>?, deadlocked: Bool)>((nil, false))
    if runningClock, let driver = clock ?? driverBox.withLock({ $0 }) {
      cancelJobsThatNeverWait(on: driver)
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

  /// Cancels, with an error, the background jobs on `driver` that never wait (an endless source
  /// that answers at once, and nothing after it that waits or ends it: `random 1 10 | drain &`).
  /// On the virtual clock time passes only when every task waits: while such a job runs, no timer
  /// fires and no wait on the clock ends, so it would hold every other job and the shell for ever.
  /// It is caught before the clock first runs it, so what it did is the same in every run.
  func cancelJobsThatNeverWait(on driver: VirtualDriver) {
    let waitedFor = foreground.withLock { $0 }
    for job in jobs.running
    where job !== waitedFor && job.context.clock.driver === driver && Lints.neverWaits(job.nodes) {
      anyFailed.store(true, ordering: .relaxed)
      console.line(
        "error: [\(job.id)] \(job.text) never waits: on the virtual clock time passes only when every "
          + "job waits, so nothing else could run: cancelled (give it an end: take N, or random's count:)",
        to: .error)
      job.cancel()
    }
  }

  /// The end of a script: waits for its background jobs. Those that can never end by themselves
  /// (an endless source nothing after it ends, or a channel, stream or subject nothing sends to any
  /// more) are named at once, with why; they may still fail or be ended by an error. On the virtual
  /// clock, once only they are left, the clock goes on at the real clock's pace, a virtual second a
  /// second (at full speed it would only spin), until they end or Ctrl-C; jobs that wait on a
  /// channel alone are a deadlock, as before.
  func waitForTheScriptsJobs() async {
    let deadlock = "deadlock at the end of the script"
    let driver = driverBox.withLock { $0 }
    // Judged after everything due now has happened: a job that has ended is not named.
    await driver?.settle()
    let neverEnding = neverEndingJobs()
    guard !spinning(neverEnding, virtual: driver != nil).isEmpty else {
      return await waitForAll(jobs.all, deadlock: deadlock)
    }
    for (job, source) in neverEnding {
      let why =
        source.facts?.endless == true
        ? "\(source.text) never ends by itself, and nothing after it ends it"
        : "nothing can send to or close \(source.text) any more"
      console.line("pipesh: the script is done, but job \(job.id) may run for ever: \(why) (\(job.text))", to: .error)
    }
    if pageRun {
      // `pipesh --page`: a page's run ends; its jobs that would not are cancelled, once those that
      // end have ended (on the virtual clock).
      let ending = jobs.running.filter { job in !neverEnding.contains { $0.0 === job } }
      if driver != nil { await waitForAll(ending, deadlock: deadlock) }
      console.line("pipesh: a page's script ends here: cancelled the jobs that would run for ever", to: .error)
      jobs.cancelAll()
      return
    }
    guard let driver else {
      console.line("pipesh: waiting for it to end; Ctrl-C stops it", to: .error)
      return await waitForAll(jobs.all)
    }
    let ending = jobs.running.filter { job in !neverEnding.contains { $0.0 === job } }
    await waitForAll(ending, deadlock: deadlock)
    // A deadlock (said already) or Ctrl-C stopped that wait: the script ends.
    guard !wasInterrupted, ending.allSatisfy({ $0.state != .running }), !jobs.running.isEmpty else { return }
    guard !spinning(neverEndingJobs(), virtual: true).isEmpty else {
      return await waitForAll(jobs.all, deadlock: deadlock)
    }
    console.line(
      "pipesh: the virtual clock goes on at the real clock's pace (at full speed it would spin); "
        + "Ctrl-C ends the script", to: .error)
    console.flush()
    // Paced while a job that keeps the clock going is left; then the rest as before.
    while !wasInterrupted, !spinning(neverEndingJobs(), virtual: true).isEmpty {
      let second = driver.now.advanced(by: .seconds(1))
      await waitFor { try? await driver.sleep(until: second) }
      guard !wasInterrupted, !jobs.running.isEmpty else { return }
      await waitFor(runningClock: false) { try? await Task.sleep(for: .seconds(1)) }
    }
    if !wasInterrupted { await waitForAll(jobs.all, deadlock: deadlock) }
  }

  /// The running jobs that cannot end by themselves, each with the source that keeps it going: an
  /// endless one, or a channel, stream or subject nothing sends to (no running job feeds it with
  /// `into`).
  private func neverEndingJobs() -> [(Job, Node)] {
    let fed = Set(jobs.running.compactMap { $0.nodes.last { $0.facts?.waitsOn == .consumer }?.channelName })
    return jobs.running.compactMap { job in
      Lints.neverEndingSource(job.nodes.filter { !$0.isSink }, closable: false).map { (job, $0) }
    }.filter { $0.1.channelName.map { !fed.contains($0) } ?? true }
  }

  /// Of those, the ones that keep a virtual clock going (a timer): the others (a channel, `never`)
  /// wait on nothing that can come, which the deadlock names. On the real clock, every one.
  private func spinning(_ jobs: [(Job, Node)], virtual: Bool) -> [(Job, Node)] {
    jobs.filter { !virtual || $0.1.facts?.waitsOn == .clock }
  }

  /// Why a wait on the virtual clock is a deadlock, the end of every deadlock message.
  public static let nothingCanRun = "every job waits and no timer is due"

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
  /// channel, `never`) and sinks waiting for a consumer (`into`).
  private static func waitingNodes(_ nodes: [Node]) -> [String] {
    var places: [String] = []
    for (index, node) in nodes.enumerated() {
      for input in node.inputs { places += waitingNodes(input) }
      for child in node.children?.all ?? [] { places += waitingNodes(child) }
      guard node.state == .running, let place = node.facts?.waitsOn else { continue }
      if index == 0 && waitsOutsideTheJob(place) || place == .consumer { places.append(node.text) }
    }
    return places
  }

  /// Whether a node waiting there waits for something outside the job: a send, a file, nothing
  /// ever, a consumer elsewhere.
  private static func waitsOutsideTheJob(_ place: WaitPlace) -> Bool {
    switch place {
    case .send, .forever, .file, .standardInput, .consumer: true
    case .nothing, .clock, .upstream, .upstreamAndClock: false
    }
  }

  /// Runs synchronous work that asks `Task.isCancelled` now and then (compare's Combine side) in a
  /// task of its own, which Ctrl-C cancels; the session's clock stands still meanwhile.
  public func interruptibly<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
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

  /// Waits for each job in turn; `deadlock` names the wait when it is one (`wait`); `since`: the
  /// Ctrl-Cs before it, which do not stop it (by default those before the statement).
  package func waitForAll(
    _ jobs: [Job], interruptible: Bool = true, deadlock: String? = nil, stopped: String? = nil, since: Int? = nil
  ) async {
    var onDeadlock: (@Sendable () -> Void)?
    if let deadlock {
      onDeadlock = { [self] in
        console.line(
          "error: \(deadlock): \(waitingPlaces(jobs)) while \(Self.nothingCanRun)", to: .error)
      }
    }
    let reported = onDeadlock
    await waitFor(interruptible: interruptible, onDeadlock: reported, since: since, stopped: stopped) {
      for job in jobs {
        await job.wait()
        if Task.isCancelled { return }
      }
    }
  }

  /// Does `action` where the session's virtual world lives (on its clock's thread), and returns
  /// when it is done; inline when there is no virtual clock.
  public func changeWorld(_ action: @escaping @Sendable () -> Void) async {
    guard let driver = driverBox.withLock({ $0 }) else { return action() }
    await driver.perform(andWait: action)
  }

  /// Reads input with the session clock running, so background virtual-time jobs go on meanwhile;
  /// while step holds the clock, it stands still.
  public func whileReading<T: Sendable>(_ read: @escaping @Sendable () async -> T) async -> T {
    guard let driver = driverBox.withLock({ $0 }), !clockHeld else { return await read() }
    return await driver.run(until: read)
  }
}
