import CMarbleTestingSupport
import Dispatch
import Locking
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one thread that runs every task of a marble run, and the virtual time of `TestClock`.
///
/// A run's root task prefers this executor (so do its child tasks); tasks that code on this thread
/// starts with `Task { }` (swift-async-algorithms' `merge`, `debounce`, `buffer`, `zip` do) are
/// enqueued on the global executor from this thread, and the runtime's global-enqueue hook sends
/// them here too. So the driver knows when every task of the run waits: its queue is empty. Then,
/// and only then, time jumps to the earliest sleeper's deadline. Tasks that become runnable at the
/// same instant run in the order they became runnable, so a run is the same every time.
///
/// Runs are serialized: there is one driver per process, and a run starts only once the previous
/// one has ended and every sleeper it left has been cancelled. Parallel tests therefore wait for
/// each other (each run takes microseconds to milliseconds of real time).
final class TestDriver: TaskExecutor, @unchecked Sendable {
  // @unchecked: every stored property but `state` is immutable; `state` is `Locked` (a pthread
  // mutex, which ThreadSanitizer sees, where it cannot see Synchronization's Mutex on Linux), and
  // the `UnownedJob`s and continuations it holds are only run or resumed on the driver thread.

  static let shared = TestDriver()

  private struct Sleeper {
    var deadline: Duration
    var order: Int
    var continuation: UnsafeContinuation<Void, any Error>
  }

  private struct Run {
    /// The run's choices among the tasks runnable at one instant; nil: the order they came in.
    var order: MarbleOrder?
    var start: @Sendable () -> Void
    var resume: @Sendable () -> Void
    var task: Task<Void, Never>?
    var finished = false
    var stallCancelled = false
  }

  private struct State {
    var now = Duration.zero
    var jobs: [UnownedJob] = []
    var jobsHead = 0
    var sleepers: [Sleeper] = []
    var order = 0
    var pending: [Run] = []
    var current: Run?
    /// The task whose job runs now on the driver thread (under an order: its hops are no choice).
    var running: UInt64?
    /// The running task enqueued itself (a hop): the first runnable job is it, and it goes on.
    var hopped = false
  }

  private enum Action {
    case run(UnownedJob)
    case start(@Sendable () -> Void)
    case wake([Sleeper])
    case cancel([Sleeper])
    case cancelRoot(Task<Void, Never>?)
    case complete(@Sendable () -> Void)
  }

  private let state = Locked(State())
  private let wakeup = DispatchSemaphore(value: 0)

  private init() {
    Self.installHook()
    start()
  }

  private func update<T>(_ body: (inout State) -> T) -> T {
    let result = state.withLock { body(&$0) }
    wakeup.signal()
    return result
  }

  /// Virtual time since the current run started (the last run's end time between runs).
  var now: Duration { state.withLock { $0.now } }

  // MARK: runs

  /// Runs `body` as a task on this driver, at virtual time zero, once every earlier run has ended;
  /// returns when it has returned and every sleeper it left has been cancelled. If every task of
  /// the run waits and none sleeps on the clock (a stall: nothing could ever happen), the body's
  /// task is cancelled; if that does not end it, the run ends without it.
  func run(order: MarbleOrder? = nil, _ body: @escaping @Sendable () async -> Void) async {
    await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
      let run = Run(
        order: order,
        start: { [unowned self] in
          let task = Task(executorPreference: self) {
            await body()
            self.update { $0.current?.finished = true }
          }
          self.update { $0.current?.task = task }
        },
        resume: { waiter.resume() })
      update { $0.pending.append(run) }
    }
  }

  // MARK: the clock

  /// Suspends the calling task until virtual time reaches `deadline`; throws `CancellationError`
  /// when the task is cancelled, when no run is under way, or when the run ends first.
  func sleep(until deadline: Duration) async throws {
    try Task.checkCancellation()
    let order = update { state -> Int in
      state.order += 1
      return state.order
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        enum Outcome { case slept, due, refused }
        // Checked under the lock: a cancel between the check above and here finds no sleeper to
        // take away, so the sleeper must not be added.
        let outcome = update { state -> Outcome in
          guard let current = state.current, !current.finished, !Task.isCancelled else { return .refused }
          if deadline <= state.now { return .due }
          state.sleepers.append(Sleeper(deadline: deadline, order: order, continuation: continuation))
          return .slept
        }
        switch outcome {
        case .slept: break
        case .due: continuation.resume()
        case .refused: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = update { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.order == order }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  // MARK: the executor

  func enqueue(_ job: UnownedJob) {
    let task = taskID(job)
    update { state in
      // Under an order, the running task enqueueing itself is a hop between executors (the
      // compiler leaves more in debug builds than in release builds): it goes on first, no choice.
      if state.current?.order != nil, let task, task == state.running {
        state.jobs.insert(job, at: state.jobsHead)
        state.hopped = true
      } else {
        state.jobs.append(job)
      }
    }
  }

  // MARK: the thread

  /// Marks the driver thread (a thread-specific value): the hook sends what it enqueues here.
  private static let routeKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  private static var onDriverThread: Bool { pthread_getspecific(routeKey) != nil }

  /// Calls `body` as if from another thread: a task it resumes (the run's caller) goes back to
  /// the global executor instead of staying on the driver.
  private func outsideTheDriver(_ body: () -> Void) {
    pthread_setspecific(Self.routeKey, nil)
    body()
    pthread_setspecific(Self.routeKey, UnsafeRawPointer(bitPattern: 1))
  }

  /// The hook that was installed before this one (another tool's), called for jobs not ours.
  /// Read when `installHook` first touches it, before this hook is installed. A `static let` is
  /// initialized once under a lock ThreadSanitizer sees, so the hook's reads on other threads are
  /// ordered after it (a plain variable was reported as racing: the runtime that reads the hook is
  /// not instrumented).
  private static let previousHook = swift_task_enqueueGlobal_hook

  private static func installHook() {
    _ = previousHook
    swift_task_enqueueGlobal_hook = { job, original in
      if TestDriver.onDriverThread {
        TestDriver.shared.enqueue(unsafeBitCast(job, to: UnownedJob.self))
      } else if let previous = TestDriver.previousHook {
        previous(job, original)
      } else {
        original(job)
      }
    }
  }

  private func start() {
    Platform.detachThread { self.loop() }
  }

  /// What to do next, or nil to wait for a signal.
  private func next(_ state: inout State) -> Action? {
    let runnable = state.jobs.count - state.jobsHead
    let hopped = state.hopped
    state.hopped = false
    if runnable > 1, !hopped, let order = state.current?.order {
      // Several tasks could run first at this instant: the run's order picks one.
      let job = state.jobs.remove(at: state.jobsHead + order.choose(among: runnable))
      if state.jobsHead == state.jobs.count {
        state.jobs.removeAll(keepingCapacity: true)
        state.jobsHead = 0
      }
      return .run(job)
    }
    if state.jobsHead < state.jobs.count {
      let job = state.jobs[state.jobsHead]
      state.jobsHead += 1
      if state.jobsHead == state.jobs.count {
        state.jobs.removeAll(keepingCapacity: true)
        state.jobsHead = 0
      }
      return .run(job)
    }
    guard let current = state.current else {
      if !state.sleepers.isEmpty {
        defer { state.sleepers.removeAll() }
        return .cancel(state.sleepers)
      }
      guard !state.pending.isEmpty else { return nil }
      let run = state.pending.removeFirst()
      state.now = .zero
      state.current = run
      return .start(run.start)
    }
    if current.finished {
      if !state.sleepers.isEmpty {
        defer { state.sleepers.removeAll() }
        return .cancel(state.sleepers)
      }
      state.current = nil
      return .complete(current.resume)
    }
    if let deadline = state.sleepers.map(\.deadline).min() {
      state.now = deadline
      let due = state.sleepers.filter { $0.deadline == deadline }.sorted { $0.order < $1.order }
      state.sleepers.removeAll { $0.deadline == deadline }
      return .wake(due)
    }
    if current.task == nil { return nil }  // the root task is being created
    if !current.stallCancelled {
      state.current?.stallCancelled = true
      return .cancelRoot(current.task)
    }
    state.current?.finished = true
    return next(&state)
  }

  private func loop() {
    pthread_setspecific(Self.routeKey, UnsafeRawPointer(bitPattern: 1))
    let executor = asUnownedTaskExecutor()
    while true {
      guard let action = state.withLock({ next(&$0) }) else {
        wakeup.wait()
        continue
      }
      switch action {
      case .run(let job):
        let task = taskID(job)
        state.withLock { $0.running = task }
        job.runSynchronously(on: executor)
        state.withLock { $0.running = nil }
      case .start(let start): start()
      case .wake(let sleepers): for sleeper in sleepers { sleeper.continuation.resume() }
      case .cancel(let sleepers):
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
      case .cancelRoot(let task): task?.cancel()
      case .complete(let resume): outsideTheDriver(resume)
      }
    }
  }
}

/// The order of one run of `Marbles.explore`: at each choice (several tasks of the run runnable at
/// one instant), which runs first. It replays `replaying`, then takes the first at each choice after
/// them, and keeps what it chose.
final class MarbleOrder: @unchecked Sendable {
  // @unchecked: read and changed only under the driver's lock (in `next`), and read after the run.
  private let replaying: [Int]
  private(set) var made: [(index: Int, count: Int)] = []
  /// A replayed choice was beyond what was runnable, or some were left over: not this run's order.
  private var outOfRange = false

  /// After the replayed choices: each at random from this generator.
  private var random: SplitMix64?

  init(replaying: [Int]) {
    self.replaying = replaying
  }

  /// Every choice at random, from a generator seeded with `seed`.
  init(randomFrom seed: UInt64) {
    replaying = []
    random = SplitMix64(seed: seed)
  }

  var misfit: Bool { outOfRange || made.count < replaying.count }

  func choose(among count: Int) -> Int {
    var index = 0
    if made.count < replaying.count {
      index = replaying[made.count]
    } else if var random {
      index = Int(random.next() % UInt64(count))
      self.random = random
    }
    if index >= count {
      outOfRange = true
      index = 0
    }
    made.append((index, count))
    return index
  }

  /// The order as a word (`Marbles.record(order:)` runs it again): the choices, dot-separated,
  /// after `o`; `o` alone when the run had none.
  var token: String { "o" + made.map { String($0.index) }.joined(separator: ".") }

  /// The choices a token names; nil when it is no token.
  static func choices(_ token: String) -> [Int]? {
    guard token.first == "o" else { return nil }
    let rest = token.dropFirst()
    guard !rest.isEmpty else { return [] }
    var choices: [Int] = []
    for part in rest.split(separator: ".", omittingEmptySubsequences: false) {
      guard let choice = Int(part), choice >= 0 else { return nil }
      choices.append(choice)
    }
    return choices
  }
}

/// The id of the task a job runs, unique in the process; nil for a job that is not a task.
private func taskID(_ job: UnownedJob) -> UInt64? {
  let id = swiftTaskGetJobTaskID(job)
  return id == 0 ? nil : id
}

// The runtime's own lookup (what `UnownedJob.description` prints as its id).
@_silgen_name("swift_task_getJobTaskId")
private func swiftTaskGetJobTaskID(_ job: UnownedJob) -> UInt64
