import CPipeSupport
import DequeModule
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The virtual clock of one job and the thread that runs the job's tasks. Time stands still while
/// any task of the job can run, and jumps to the next deadline when every one of them waits on the
/// clock; ties wake in the order they went to sleep, so a run is the same every time.
///
/// The job's root task prefers this executor; tasks that the operators start with `Task { }` are
/// caught by the runtime's global-enqueue hook when they are enqueued from this driver's thread.
public final class VirtualDriver: TaskExecutor, @unchecked Sendable {
  // @unchecked: every mutable field is guarded by `state`'s mutex or only touched on the driver thread.

  struct Sleeper {
    let deadline: PipeInstant
    let sequence: Int
    let continuation: UnsafeContinuation<Void, any Error>
  }

  struct State {
    /// Jobs ready to run, in the order they became ready.
    var queue = Deque<UnownedJob>()
    /// Tasks waiting for a deadline, keyed by their sequence number.
    var sleepers: [Int: Sleeper] = [:]
    var now = PipeInstant(offset: .zero)
    var nextSequence = 0
    /// No more work will come: leave once nothing is left to run.
    var finishing = false
    /// The shell is issuing statements: nothing runs and time does not move.
    var shellActive = false
  }

  private let state = Locked(State())
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var thread = pthread_t()

  /// Tasks that live outside every virtual world, by address: the shell's own tasks and
  /// real-clock jobs. The hook never pulls them into a driver, even when a virtual task resumes
  /// them (a job ending, a channel handing over a value). A shell task resumed from a driver
  /// pauses that driver at once, so time does not move before the shell has acted.
  struct Outsider {
    var registrations = 0
    var isShell = false
  }

  static let outsiders = Locked<[UInt: Outsider]>([:])

  /// Runs `body` with the current task marked as a real-clock job, outside every virtual world.
  public static func asForeign<T>(_ body: () async -> T) async -> T {
    await registered(shell: false, body)
  }

  /// Runs `body` with the current task marked as the shell's: outside every virtual world, and
  /// pausing a driver that resumes it.
  public static func asShell<T>(_ body: () async -> T) async -> T {
    await registered(shell: true, body)
  }

  private static func registered<T>(shell: Bool, _ body: () async -> T) async -> T {
    let address = withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
    guard let address else { return await body() }
    outsiders.withLock {
      $0[address, default: Outsider()].registrations += 1
      $0[address, default: Outsider()].isShell = $0[address, default: Outsider()].isShell || shell
    }
    defer {
      outsiders.withLock { table in
        table[address, default: Outsider()].registrations -= 1
        if table[address, default: Outsider()].registrations <= 0 { table[address] = nil }
      }
    }
    return await body()
  }

  static let hookInstalled: Bool = {
    swift_task_enqueueGlobal_hook = { job, original in
      guard let raw = pipe_current_driver() else { return original(job) }
      let driver = Unmanaged<VirtualDriver>.fromOpaque(raw).takeUnretainedValue()
      switch outsiders.withLock({ $0[UInt(bitPattern: job)]?.isShell }) {
      case nil:
        driver.enqueue(unsafeBitCast(job, to: UnownedJob.self))
      case true?:
        driver.hold()
        original(job)
      case false?:
        original(job)
      }
    }
    return true
  }()

  public init() {
    _ = Self.hookInstalled
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  public var now: PipeInstant { state.withLock { $0.now } }

  /// Starts the driver thread; it holds the driver until the job is over.
  public func start() {
    let retained = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        let driver = Unmanaged<VirtualDriver>.fromOpaque(raw).takeRetainedValue()
        driver.run()
        return nil
      }, retained)
    pthread_detach(thread)
  }

  /// Tells the driver no more work will come: it leaves once the queue is empty, cancelling
  /// any sleepers left behind.
  public func finish() {
    state.withLock { $0.finishing = true }
    signal()
  }

  /// Pauses the job's world until `release()`: nothing runs and time does not move. The shell
  /// holds the clock while it issues statements, so every statement up to the next wait starts at
  /// the same instant and the tasks then run in the order the statements made them.
  public func hold() {
    state.withLock { $0.shellActive = true }
  }

  public func release() {
    state.withLock { $0.shellActive = false }
    signal()
  }

  public func enqueue(_ job: UnownedJob) {
    state.withLock { $0.queue.append(job) }
    signal()
  }

  private func signal() {
    pthread_mutex_lock(&mutex)
    pthread_cond_signal(&condition)
    pthread_mutex_unlock(&mutex)
  }

  func sleep(until deadline: PipeInstant) async throws {
    if deadline <= now {
      try Task.checkCancellation()
      return
    }
    let sequence = state.withLock { state -> Int in
      state.nextSequence += 1
      return state.nextSequence
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.sleepers[sequence] = Sleeper(deadline: deadline, sequence: sequence, continuation: continuation)
          return false
        }
        if resumeNow { continuation.resume(throwing: CancellationError()) }
        signal()
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: sequence) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// What the driver does next.
  private enum Step {
    /// Run this job.
    case run(UnownedJob)
    /// Time moved on: wake these sleepers.
    case wake([Sleeper])
    /// The root ended, the job left sleepers behind: cancel them.
    case cancelLeftovers([Sleeper])
    /// Nothing can run and nobody sleeps: wait for a job from outside.
    case idle
    /// The job is over.
    case exit
  }

  private func nextStep() -> Step {
    state.withLock { state -> Step in
      if state.shellActive, !state.finishing { return .idle }
      if let job = state.queue.popFirst() { return .run(job) }
      if state.finishing {
        if state.sleepers.isEmpty { return .exit }
        let leftovers = state.sleepers.values.sorted { $0.sequence < $1.sequence }
        state.sleepers.removeAll()
        return .cancelLeftovers(leftovers)
      }
      guard let earliest = state.sleepers.values.min(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) })
      else { return .idle }
      if earliest.deadline > state.now { state.now = earliest.deadline }
      let due = state.sleepers.values.filter { $0.deadline <= state.now }.sorted {
        ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence)
      }
      for sleeper in due { state.sleepers[sleeper.sequence] = nil }
      return .wake(due)
    }
  }

  private func run() {
    pipe_set_current_driver(Unmanaged.passUnretained(self).toOpaque())
    defer { pipe_set_current_driver(nil) }
    let executor = asUnownedTaskExecutor()
    while true {
      switch nextStep() {
      case .run(let job):
        job.runSynchronously(on: executor)
      case .wake(let sleepers):
        for sleeper in sleepers { sleeper.continuation.resume() }
      case .cancelLeftovers(let sleepers):
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
      case .idle:
        pthread_mutex_lock(&mutex)
        let empty = state.withLock {
          ($0.shellActive || ($0.queue.isEmpty && $0.sleepers.isEmpty)) && !$0.finishing
        }
        if empty { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
      case .exit:
        return
      }
    }
  }
}
