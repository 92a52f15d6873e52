import CEnqueueHook
import Dispatch
import Locking
import Platform
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A virtual clock and the one thread that runs every task on it. Time stands still while any
/// task can run, and jumps to the next deadline when all of them wait on the clock; tasks that
/// become runnable at the same instant run in the order they became runnable, so a run prints the
/// same bytes every time and in every build.
///
/// Tasks get here two ways: a task that prefers this driver as its executor comes through
/// `enqueue` (a run's task, a job's, unless the driver `runsKnownCode`), and tasks enqueued on the
/// global executor from this driver's thread (the tasks operators start with `Task { }`) are
/// caught by the runtime's global-enqueue hook. The transitions live in `VirtualClockStateMachine`.
///
/// One driver for every virtual clock: the shell's, `draw`'s, `explore`'s and MarbleTesting's. It
/// observes no task itself: a layer above that does (pipesh's task book) gives `installHook` what
/// holds a task's first enqueue back while the task is being created.
///
/// The only way to let time move is `run(until:)`.
public final class VirtualDriver: TaskExecutor, @unchecked Sendable {
  // @unchecked: `machine` is only touched while `mutex` is held; the thread handle only in `start`.

  private var machine = VirtualClockStateMachine()
  /// `explore`'s order, if the driver follows one.
  private let order: ChoiceOrder?
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  /// Whether every task on this clock runs code known never to ask for its current executor
  /// (`Task.currentExecutor`, on which `Task.yield()` enqueues): pipesh's own and
  /// swift-async-algorithms 1.1.4's. Then its tasks prefer no executor and run on none, so that a
  /// hop to the generic executor goes on at once, and no hop takes a task's lock to look up its
  /// preference (a third of the time of a timed pipeline went there). Otherwise (a MarbleTesting
  /// run: the user's code) every task runs with the driver as its task executor, and a run's task
  /// prefers it: a task that prefers none and runs on none is told the runtime's default executor
  /// as its current one, whose `enqueue` the global-enqueue hook does not see, so its
  /// `Task.yield()` would leave the clock.
  public let runsKnownCode: Bool

  /// A driver whose choices among tasks runnable at one instant follow `order` (`explore`);
  /// `runsKnownCode`: see its property (the shell's drivers; not MarbleTesting's).
  public init(order: ChoiceOrder? = nil, runsKnownCode: Bool = false) {
    _ = Self.hookInstalled
    self.runsKnownCode = runsKnownCode
    self.order = order
    machine.order = order
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
    start()
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Runs `body` under the lock, then wakes the driver thread.
  private func update<T>(_ body: (inout VirtualClockStateMachine) -> T) -> T {
    pthread_mutex_lock(mutex)
    defer {
      pthread_cond_signal(condition)
      pthread_mutex_unlock(mutex)
    }
    return body(&machine)
  }

  public var now: PipeInstant {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return machine.now
  }

  // MARK: the one entry point

  /// Lets the clock run until `body`, run as a task on this clock, returns; then pauses it before
  /// any other task runs, and returns `body`'s result. `onStall` is called (once, on the driver
  /// thread) if nothing can run and nobody sleeps while `body` has not returned. Cancelling the
  /// calling task cancels `body`.
  public func run<T: Sendable>(
    until body: @escaping @Sendable () async -> T, onStall: (@Sendable () -> Void)? = nil
  ) async -> T {
    // Control actions asked for before this run (a `cancel`'s) are carried out first, so what they
    // make runnable is queued before the run's task: the order of statements decides, not how fast
    // the driver thread gets to them.
    if !isCurrent { await perform(andWait: {}) }
    let started = Locked<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
    let handOver = VisibleResume()
    defer { handOver.received() }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: UnsafeContinuation<T, Never>) in
        let id = update { $0.runPrepared() }
        let task = self.task {
          let value = await body()
          self.update { $0.runEnded(id, resume: { handOver.resume(waiter, returning: value) }) }
        }
        update { $0.runStarted(id, onStall: onStall) }
        let cancelled = started.withLock { state -> Bool in
          state.task = task
          return state.cancelled
        }
        if cancelled { perform { task.cancel() } }
      }
    } onCancel: {
      let task = started.withLock { state -> Task<Void, Never>? in
        state.cancelled = true
        return state.task
      }
      if let task { perform { task.cancel() } }
    }
  }

  /// Makes a task of this clock, from any thread. On a driver that `runsKnownCode`, a task that
  /// prefers no executor (a hop takes no lock to look a preference up): it is made as if on the
  /// driver's thread, so the runtime's global-enqueue hook sends it here, and a resume of it from
  /// another thread (a read delivered, a real-clock job's send) brings it back here too while its
  /// body runs (`owners`); its children and the tasks its code starts come here through the hook
  /// when enqueued on the driver's thread. On any other, a task that prefers the driver as its
  /// executor (`Task(executorPreference:)`), and so do its children.
  public func task(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    guard runsKnownCode else { return Task(executorPreference: self, operation: body) }
    let caller = Self.currentPointer
    Self.currentPointer = Unmanaged.passUnretained(self).toOpaque()
    defer { Self.currentPointer = caller }
    return Task.detached {
      let mark = Self.markOwn(self)
      await body()
      Self.unmarkOwn(mark)
    }
  }

  /// The tasks the hook sends somewhere else than the enqueuing thread says, by address: real-clock
  /// jobs' root tasks (`markForeign`: to the global executor, even when a virtual task resumes
  /// them, a channel handing over a value), with how many times each is registered; and the tasks
  /// `task(_:)` made while their bodies run (to their driver, whatever thread resumes them: another
  /// thread's, or another driver's, a `draw`'s job sending into a channel a session job reads).
  /// One table, so that an enqueue on a driver's thread takes one lock to ask both. Tasks of
  /// `task(_:)` are counted, so that an enqueue on any other thread takes no lock while there is
  /// none. (The children of such a task, and the tasks its code starts, go by the enqueuing
  /// thread: one resumed from another thread, by a real-clock job or another driver's, leaves its
  /// clock, as the tasks operators start with `Task { }` always could.)
  private struct Owners {
    var foreign: [UInt: Int] = [:]
    var own: [UInt: Unmanaged<VirtualDriver>] = [:]
  }

  private static let owners = Locked(Owners())
  private static let ownTaskCount = Atomic<Int>(0)

  /// The current task's address (a task job's, as the hook sees it), or nil outside a task.
  private static func currentTaskAddress() -> UInt? {
    withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
  }

  private static func markOwn(_ driver: VirtualDriver) -> UInt? {
    let address = currentTaskAddress()
    guard let address else { return nil }
    owners.withLock { $0.own[address] = Unmanaged.passUnretained(driver) }
    ownTaskCount.add(1, ordering: .releasing)
    return address
  }

  private static func unmarkOwn(_ mark: UInt?) {
    guard let address = mark else { return }
    ownTaskCount.subtract(1, ordering: .releasing)
    owners.withLock { $0.own[address] = nil }
  }

  /// Lets every task of this clock run as far as it can at the current instant (the tasks ready
  /// now, and the sleepers due now), then pauses the clock again; time does not move. The shell
  /// settles the clock before each statement, so a statement sees what the real clock would show
  /// at that instant: every job started has run to its first wait, every tick due has happened.
  /// Cancelling the calling task ends the settle at once.
  public func settle() async {
    let handOver = VisibleResume()
    defer { handOver.received() }
    let id = update { $0.runPrepared() }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
        update { $0.settleRequested(id, resume: { handOver.resume(waiter, returning: ()) }) }
      }
    } onCancel: {
      update { $0.settleCancelled(id) }
    }
  }

  /// Called by a run's `onStall`, on the driver thread: if what it did makes nothing runnable, the
  /// stall is reported to it again (MarbleTesting cancels a stalled run, then leaves it).
  public func reportStallAgain() {
    update { $0.stallReportWanted() }
  }

  /// Does `action` on the driver thread, even while the clock is paused: cancellations of tasks
  /// on this clock go this way, so no other thread ever runs their cancellation handlers (which
  /// take the operators' locks) while the driver runs their code.
  /// On the driver thread itself (a node's code asking for its job's cancellation) the action runs
  /// at once: the running task may never give the thread back (a loop over `range`).
  public func perform(_ action: @escaping @Sendable () -> Void) {
    if isCurrent { return action() }
    update { $0.actionRequested(action) }
  }

  /// Does `action` on the driver thread and returns once it is done. The shell changes the
  /// virtual world this way (closing a channel), so what the change makes runnable is queued in
  /// the order of the statements.
  public func perform(andWait action: @escaping @Sendable () -> Void) async {
    let handOver = VisibleResume()
    await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
      perform {
        action()
        self.outsideTheClock { handOver.resume(waiter, returning: ()) }
      }
    }
    handOver.received()
  }

  /// Calls `body` on the driver thread as if from no driver's thread: a task it resumes goes back
  /// to the global executor instead of into this clock.
  private func outsideTheClock(_ body: () -> Void) {
    Self.setCurrent(nil)
    body()
    Self.setCurrent(self)
  }

  /// Whether this thread is this driver's.
  private var isCurrent: Bool { Self.currentPointer == Unmanaged.passUnretained(self).toOpaque() }

  /// The driver whose thread this is, or nil.
  package static var current: VirtualDriver? {
    currentPointer.map { Unmanaged<VirtualDriver>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Marks the driver thread (a thread-specific value, not retained: the thread holds its driver).
  private static let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  private static var currentPointer: UnsafeMutableRawPointer? {
    get { pthread_getspecific(currentKey) }
    set { pthread_setspecific(currentKey, newValue) }
  }

  private static func setCurrent(_ driver: VirtualDriver?) {
    currentPointer = driver.map { Unmanaged.passUnretained($0).toOpaque() }
  }

  /// Work outside the clock that a task of it waits for (a file read) began: until it ends, no
  /// task runs and time does not move, so the read takes no virtual time and nothing overtakes it.
  package func externalWorkBegan() {
    update { $0.externalWorkBegan() }
  }

  /// The external work ended; call it on the driver thread (inside `perform`).
  package func externalWorkEnded() {
    update { $0.externalWorkEnded() }
  }

  /// No one will use the clock again: the thread runs what is queued, cancels the tasks still
  /// sleeping on it, and ends. With `waiting`, returns once it has (at most `waiting` later): what
  /// those tasks held is let go of by then, so a count made after it is the same in every run.
  public func shutdown(waiting: Duration? = nil) {
    update { $0.shutdownRequested() }
    guard let waiting else { return }
    let seconds = Double(waiting.components.seconds) + Double(waiting.components.attoseconds) / 1e18
    _ = exited.wait(timeout: .now() + seconds)
  }

  /// Signalled when the thread has ended.
  private let exited = DispatchSemaphore(value: 0)

  // MARK: the clock

  // Not inlined into `PipeClock.sleep`, whose frame every waiting timer of a real-clock job keeps.
  /// With `isHorizon`, the deadline is how far a search looks (a `step`'s window): while only
  /// horizons sleep, a run stalls (its `onStall` is called) before time moves to one.
  @inline(never)
  public func sleep(until deadline: PipeInstant, isHorizon: Bool = false) async throws {
    try Task.checkCancellation()
    let sequence = update { $0.sleepSequence() }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let sleeping = update {
          $0.slept(until: deadline, sequence: sequence, continuation: continuation, isHorizon: isHorizon)
        }
        if !sleeping { continuation.resume() }
      }
    } onCancel: {
      let sleeper = update { $0.sleepCancelled(sequence) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Sleeps until `deadline` whatever becomes of the calling task: its cancellation does not end
  /// the wait (`work … cooperative: false`). Only the clock's shutdown ends it early.
  @inline(never)
  public func sleepIgnoringCancellation(until deadline: PipeInstant) async {
    let sequence = update { $0.sleepSequence() }
    try? await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
      let sleeping = update { $0.slept(until: deadline, sequence: sequence, continuation: continuation) }
      if !sleeping { continuation.resume() }
    }
  }

  // MARK: the executor

  public func enqueue(_ job: UnownedJob) {
    // A task being created is enqueued once the layer above sees its end (`installHook`).
    let raw = unsafeBitCast(job, to: EnqueueJobRef.self)
    if let hold = Self.hold, hold(raw, Self.enqueueDeferred, Unmanaged.passUnretained(self).toOpaque()) != 0 {
      _ = Unmanaged.passRetained(self)
      return
    }
    let part = takesPart(job)
    update { $0.enqueued(job, takesPart: part, prefersDriver: true) }
  }

  /// Whether `job` takes part in the order's choices; asked before the lock is taken.
  private func takesPart(_ job: UnownedJob) -> Bool {
    guard let order else { return true }
    return order.takesPart(jobAddress(job))
  }

  /// Enqueues a job held back while its task was created (the driver retained for it).
  private static let enqueueDeferred: enqueue_function = { job, driver in
    guard let driver else { return }
    let owner = Unmanaged<VirtualDriver>.fromOpaque(driver).takeRetainedValue()
    let unowned = unsafeBitCast(job, to: UnownedJob.self)
    let part = owner.takesPart(unowned)
    owner.update { $0.enqueued(unowned, takesPart: part, prefersDriver: true) }
  }

  /// Installs the runtime's global-enqueue hook (once): tasks enqueued from a driver's thread stay
  /// on that driver. `hold`, given by a layer that observes task creation (pipesh's task book,
  /// before it starts observing), holds a task's first enqueue back while the task is being
  /// created; MarbleTesting gives none.
  public static func installHook(holdingBack hold: enqueue_hold_function? = nil) {
    if let hold { holdAddress.store(UInt(bitPattern: unsafeBitCast(hold, to: Int.self)), ordering: .releasing) }
    _ = hookInstalled
  }

  /// What holds enqueues back, as an address (0: nothing): an atomic, which ThreadSanitizer sees.
  private static let holdAddress = Atomic<UInt>(0)

  private static var hold: enqueue_hold_function? {
    let address = holdAddress.load(ordering: .acquiring)
    return address == 0 ? nil : unsafeBitCast(Int(bitPattern: address), to: enqueue_hold_function.self)
  }

  static let hookInstalled: Bool = {
    _ = previousHook
    _ = currentKey
    swift_task_enqueueGlobal_hook = { job, original in
      if let hold = VirtualDriver.hold,
        hold(job, routeHeldBack, unsafeBitCast(original, to: UnsafeMutableRawPointer.self)) != 0
      {
        return
      }
      route(job, original)
    }
    return true
  }()

  /// The hook installed before this one (another tool's), called for every job that is not a
  /// virtual driver's. Read once, before this hook is installed; a `static let` is initialized under
  /// a lock ThreadSanitizer sees.
  private static let previousHook = swift_task_enqueueGlobal_hook

  /// Where a task enqueued on the global executor goes: to the driver whose thread enqueues it,
  /// unless it is a real-clock job's; anything else to the previous hook, or the global executor.
  private static func route(_ job: EnqueueJobRef, _ original: swift_task_enqueueGlobal_original) {
    let address = UInt(bitPattern: job)
    let driver: VirtualDriver
    if let raw = currentPointer {
      let (foreign, owner) = owners.withLock { ($0.foreign[address] != nil, $0.own[address]) }
      if let owner {
        driver = owner.takeUnretainedValue()
      } else if foreign {
        guard let previous = previousHook else { return original(job) }
        return previous(job, original)
      } else {
        driver = Unmanaged<VirtualDriver>.fromOpaque(raw).takeUnretainedValue()
      }
    } else if ownTaskCount.load(ordering: .acquiring) > 0, let owner = owners.withLock({ $0.own[address] }) {
      driver = owner.takeUnretainedValue()
    } else {
      guard let previous = previousHook else { return original(job) }
      return previous(job, original)
    }
    let unowned = unsafeBitCast(job, to: UnownedJob.self)
    let part = driver.takesPart(unowned)
    driver.update { $0.enqueued(unowned, takesPart: part, prefersDriver: false) }
  }

  private static let routeHeldBack: enqueue_function = { job, original in
    guard let original else { return }
    route(job, unsafeBitCast(original, to: swift_task_enqueueGlobal_original.self))
  }

  /// Marks the current task as a real-clock job's, outside every virtual clock, until
  /// `unmarkForeign` is given what this returns (nil outside a task). A job's task does it around
  /// its own work: no closure, and no frame of a generic async function, stays in the task's
  /// memory while the job waits.
  public static func markForeign() -> UInt? {
    let address = currentTaskAddress()
    guard let address else { return nil }
    owners.withLock { $0.foreign[address, default: 0] += 1 }
    return address
  }

  /// Ends what `markForeign` began.
  public static func unmarkForeign(_ mark: UInt?) {
    guard let address = mark else { return }
    owners.withLock { owners in
      let count = owners.foreign[address, default: 1] - 1
      owners.foreign[address] = count > 0 ? count : nil
    }
  }

  /// The runtime's generic executor as a job's serial executor: a job run on it runs on no task
  /// executor, as a task that prefers none expects (both words of the reference zero).
  private static let genericExecutor = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)

  // MARK: the thread

  /// The driver's thread holds the driver until its loop ends (at `shutdown`).
  private func start() {
    Platform.detachThread { self.loop() }
  }

  private func loop() {
    Self.setCurrent(self)
    defer { Self.setCurrent(nil) }
    let executor = asUnownedTaskExecutor()
    while true {
      pthread_mutex_lock(mutex)
      var action = machine.next()
      while case .block = action {
        pthread_cond_wait(condition, mutex)
        action = machine.next()
      }
      pthread_mutex_unlock(mutex)
      switch action {
      case .resumeWaiter(let resume):
        outsideTheClock(resume)
      case .perform(let body):
        body()
      case .run(let ready) where ready.prefersDriver || !runsKnownCode:
        ready.job.runSynchronously(on: executor)
      case .run(let ready):
        // On no task executor: such a task (an operator's `Task { }`) prefers none, so its hops to
        // the generic executor stay on this thread instead of being enqueued again (on the driver
        // as its task executor, each would be: it is not the one the task prefers).
        ready.job.runSynchronously(on: Self.genericExecutor)
      case .wake(let sleepers):
        for sleeper in sleepers { sleeper.continuation.resume() }
      case .reportStall(let handlers):
        for handler in handlers { handler() }
      case .cancelSleepers(let sleepers):
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
      case .block:
        continue
      case .exit:
        exited.signal()
        return
      }
    }
  }
}
