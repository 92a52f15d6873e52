import DequeModule

/// Every state and transition of a virtual clock, in one place. It holds no lock and causes no
/// effect: `VirtualDriver` calls it under its lock and carries out the action it returns outside.
///
/// The clock is paused unless someone waits on it. A wait is a *run*: the shell asks the clock to
/// run until something happens (a job ends, a `send` is taken, a line is read), and the run ends
/// on the driver's own thread the moment that thing happens, before any other task runs.
struct VirtualClockStateMachine {
  struct Sleeper {
    let deadline: PipeInstant
    let sequence: Int
    let continuation: UnsafeContinuation<Void, any Error>
    /// How far a search looks (a `step`'s window), not a task's deadline: no reason for time to move.
    var isHorizon = false
  }

  /// What the driver thread does next.
  enum Action {
    /// Resume the shell whose run just ended; the clock is paused again when no run is left.
    case resumeWaiter(@Sendable () -> Void)
    /// Carry out a control action asked for from outside (a cancellation), paused or not.
    case perform(@Sendable () -> Void)
    /// Run one job of a task that became runnable, in the order they became runnable.
    case run(ReadyJob)
    /// Time jumped to the next deadline: resume these sleepers, in the order they went to sleep.
    case wake([Sleeper])
    /// Nothing can run and nobody sleeps, yet a run waits: tell its waiter once (a `send` no one takes).
    case reportStall([@Sendable () -> Void])
    /// The clock is being shut down and tasks still sleep on it: cancel them.
    case cancelSleepers([Sleeper])
    /// Nothing to do until something changes.
    case block
    /// Shut down and nothing is left: the thread ends.
    case exit
  }

  /// A job ready to run, and whether its task prefers the driver as its executor (one made with
  /// `Task(executorPreference:)` does, and comes through the driver's `enqueue`: on a driver that
  /// does not `runsKnownCode`, a run's task and a job's; the tasks operators start with `Task { }`
  /// do not, and come through the global-enqueue hook, as a run's and a job's do on the shell's).
  struct ReadyJob {
    let job: UnownedJob
    let prefersDriver: Bool
  }

  /// Tasks ready to run, in the order they became ready.
  private var ready = Deque<ReadyJob>()
  /// The task the driver thread runs now, by task id, until it asks for its next action. Not by
  /// address: a task that ends during its run may be freed, and a task made right after (by a
  /// deinit) may get its address, and be taken for a hop at a place that depends on the allocator.
  private var running: UInt64?
  /// Under an order, the ready jobs (by address) of tasks that take no part in its choices, as
  /// the driver found out outside its lock when they were enqueued.
  private var ownJobs: Set<UInt> = []
  /// The running task enqueued itself (a hop): `ready`'s first job is it.
  private var hopped = false
  /// Control actions, in the order they were asked for.
  private var actions = Deque<@Sendable () -> Void>()
  /// Waiters of runs that ended, to resume in order.
  private var endedRuns = Deque<@Sendable () -> Void>()
  /// Tasks waiting for a deadline, by the order they went to sleep.
  private var sleepers: [Int: Sleeper] = [:]
  /// Runs under way, by id, with what to call if the run stalls.
  private var runs: [Int: (@Sendable () -> Void)?] = [:]
  /// Settles under way: the waiters of runs that end once nothing can happen at the current instant
  /// any more (no task ready, no sleeper due), without moving time.
  private var settling: [Int: @Sendable () -> Void] = [:]
  private var nextRunID = 0
  /// Runs whose task ended before the run was marked started.
  private var endedBeforeStart: Set<Int> = []
  private var nextSleepSequence = 0
  /// Whether the current stall was reported already; cleared when anything runs again.
  private var stallReported = false
  private var shuttingDown = false
  /// Reads outside the clock that tasks of it wait for: while any is under way, nothing runs.
  private var externalWork = 0
  private(set) var now = PipeInstant(offset: .zero)
  /// `explore`'s order: which runnable task goes first where several take part; nil: the first.
  var order: ChoiceOrder?

  /// Whether tasks may run and time may move.
  private var isRunning: Bool { !runs.isEmpty || !settling.isEmpty || shuttingDown }

  mutating func next() -> Action {
    // The running task hopped: it goes on before anything else, control actions included. Code
    // such as swift-async-algorithms' merge holds a lock across such a hop ("the closure is
    // guaranteed to be run straight away"); a cancellation performed in between would run the
    // operator's cancellation handler on this thread, wait for that lock, and hang the clock.
    if hopped, let job = ready.popFirst() {
      if order != nil { ownJobs.remove(jobAddress(job.job)) }
      hopped = false
      stallReported = false
      return .run(job)
    }
    hopped = false
    running = nil
    if let waiter = endedRuns.popFirst() { return .resumeWaiter(waiter) }
    if let action = actions.popFirst() { return .perform(action) }
    // A read outside the clock is under way: a settle ends rather than wait for it (the read takes
    // no virtual time, and a statement such as `cancel` must not wait for a line).
    if !settling.isEmpty, externalWork > 0 { return endSettles() }
    guard isRunning, externalWork == 0 else { return .block }
    if let job = nextReady() {
      stallReported = false
      running = taskID(job.job)
      return .run(job)
    }
    if shuttingDown {
      guard !sleepers.isEmpty else { return .exit }
      let leftovers = sleepers.values.sorted { $0.sequence < $1.sequence }
      sleepers.removeAll()
      return .cancelSleepers(leftovers)
    }
    let earliest = sleepers.values.min(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) })
    // Everything due at this instant has happened: a settle ends here, before time moves.
    if !settling.isEmpty, earliest.map({ $0.deadline > now }) ?? true { return endSettles() }
    // Only a search's horizon sleeps: nothing can happen before it, a stall, said before time moves.
    if let earliest, earliest.isHorizon, earliest.deadline > now, !stallReported, !runs.isEmpty,
      sleepers.values.allSatisfy(\.isHorizon)
    {
      stallReported = true
      return .reportStall(runs.keys.sorted().compactMap { runs[$0] ?? nil })
    }
    if let earliest, !runs.isEmpty || earliest.deadline <= now {
      if now < earliest.deadline { now = earliest.deadline }
      let due = sleepers.values.filter { $0.deadline <= now }.sorted { $0.sequence < $1.sequence }
      for sleeper in due { sleepers[sleeper.sequence] = nil }
      stallReported = false
      return .wake(due)
    }
    guard !stallReported, !runs.isEmpty else { return .block }
    stallReported = true
    return .reportStall(runs.keys.sorted().compactMap { runs[$0] ?? nil })
  }

  /// The ready task to run next: the first, unless an order decides. Under an order, a task that
  /// takes no part in choices (pipesh's own) runs first; among several that do, the order picks.
  /// An order that only watches takes the first, and notes a choice where it passes one.
  private mutating func nextReady() -> ReadyJob? {
    guard let order else { return ready.popFirst() }
    let job: ReadyJob?
    if !order.picks {
      // Watching: the first runs, as without an order; a choice where it takes part among several.
      let taking = ready.count { !ownJobs.contains(jobAddress($0.job)) }
      if let first = ready.first, taking > 1, !ownJobs.contains(jobAddress(first.job)) {
        _ = order.choose(among: taking, at: now.offset)
      }
      job = ready.popFirst()
    } else if ready.count <= 1 {
      job = ready.popFirst()
    } else if let own = ready.firstIndex(where: { ownJobs.contains(jobAddress($0.job)) }) {
      job = ready.remove(at: own)
    } else {
      job = ready.remove(at: order.choose(among: ready.count, at: now.offset))
    }
    if let job { ownJobs.remove(jobAddress(job.job)) }
    return job
  }

  /// A task became runnable. The running task enqueueing itself is a hop between executors (the
  /// compiler leaves more of them in debug builds than in release builds): it goes on at once, as
  /// if it had not hopped, so the order of tasks does not depend on the build.
  /// `takesPart`: whether it takes part in the order's choices (asked outside the lock: the
  /// answer takes the task book's lock, which a task's creation holds while it reads the clock).
  /// `prefersDriver`: whether it came through the driver's `enqueue` (its task prefers the driver).
  mutating func enqueued(_ job: UnownedJob, takesPart: Bool = true, prefersDriver: Bool) {
    if !takesPart { ownJobs.insert(jobAddress(job)) }
    let ready = ReadyJob(job: job, prefersDriver: prefersDriver)
    if let running, taskID(job) == running {
      self.ready.prepend(ready)
      hopped = true
    } else {
      self.ready.append(ready)
    }
  }

  /// Someone outside asked for `action` to be done on the driver thread.
  mutating func actionRequested(_ action: @escaping @Sendable () -> Void) {
    actions.append(action)
  }

  /// The id of a run about to start. Its task is queued first, then the run starts, so nothing
  /// can run between the start and the queueing.
  mutating func runPrepared() -> Int {
    nextRunID += 1
    return nextRunID
  }

  /// Run `id` began: the clock runs until `runEnded` names it (unless that happened already, while
  /// another run kept the clock going).
  mutating func runStarted(_ id: Int, onStall: (@Sendable () -> Void)?) {
    guard endedBeforeStart.remove(id) == nil else { return }
    runs[id] = onStall
    stallReported = false
  }

  /// The thing run `id` waited for happened (called on the driver thread, inside a task).
  mutating func runEnded(_ id: Int, resume waiter: @escaping @Sendable () -> Void) {
    if runs.removeValue(forKey: id) == nil { endedBeforeStart.insert(id) }
    endedRuns.append(waiter)
  }

  /// Someone waits until everything that can happen at the current instant has happened: every
  /// ready task has run as far as it can, and every sleeper due now has woken (and run on).
  mutating func settleRequested(_ id: Int, resume waiter: @escaping @Sendable () -> Void) {
    settling[id] = waiter
    stallReported = false
  }

  /// A stall's handler did something that may not make anything runnable (a cancellation no task
  /// waits on): if the clock is still stalled, the stall is reported again.
  mutating func stallReportWanted() {
    stallReported = false
  }

  /// A settle's waiter was cancelled (Ctrl-C): it is resumed now, whatever still runs.
  mutating func settleCancelled(_ id: Int) {
    guard let waiter = settling.removeValue(forKey: id) else { return }
    endedRuns.append(waiter)
  }

  /// Every settle ends: their waiters are resumed in the order they came.
  private mutating func endSettles() -> Action {
    let waiters = settling.keys.sorted().compactMap { settling[$0] }
    settling.removeAll()
    endedRuns.append(contentsOf: waiters)
    return endedRuns.popFirst().map { .resumeWaiter($0) } ?? .block
  }

  /// A task sleeps until `deadline`; returns false when the deadline has passed already.
  mutating func slept(
    until deadline: PipeInstant, sequence: Int, continuation: UnsafeContinuation<Void, any Error>,
    isHorizon: Bool = false
  ) -> Bool {
    guard now < deadline else { return false }
    sleepers[sequence] = Sleeper(
      deadline: deadline, sequence: sequence, continuation: continuation, isHorizon: isHorizon)
    return true
  }

  /// The number that orders a new sleeper among those with the same deadline.
  mutating func sleepSequence() -> Int {
    nextSleepSequence += 1
    return nextSleepSequence
  }

  /// A sleeping task was cancelled: it leaves the sleepers (nil when it had been woken already).
  mutating func sleepCancelled(_ sequence: Int) -> Sleeper? {
    sleepers.removeValue(forKey: sequence)
  }

  /// A task of the clock waits for a read outside it.
  mutating func externalWorkBegan() {
    externalWork += 1
  }

  /// That read ended.
  mutating func externalWorkEnded() {
    externalWork -= 1
  }

  /// No one will use the clock again: run what is left, cancel the sleepers, end the thread.
  mutating func shutdownRequested() {
    shuttingDown = true
  }
}

/// The address of a job (a task's is the task's own): how the state machine keeps pipesh's own
/// jobs apart and how an order's `takesPart` is asked about one.
func jobAddress(_ job: UnownedJob) -> UInt {
  UInt(bitPattern: Int(bitPattern: unsafeBitCast(job, to: OpaquePointer.self)))
}

/// The id of the task a job runs, unique in the process; nil for a job that is not a task.
private func taskID(_ job: UnownedJob) -> UInt64? {
  let id = swiftTaskGetJobTaskID(job)
  return id == 0 ? nil : id
}

// The runtime's own lookup (what `UnownedJob.description` prints as its id).
@_silgen_name("swift_task_getJobTaskId")
private func swiftTaskGetJobTaskID(_ job: UnownedJob) -> UInt64
