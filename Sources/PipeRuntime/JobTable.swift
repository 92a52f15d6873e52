import Locking
import PipeSema
import Synchronization

/// Which clock a job runs on.
public enum ClockChoice: Sendable {
  /// The real `ContinuousClock`.
  case real
  /// The session's virtual clock (already started), shared by all its virtual-time jobs.
  case virtual(VirtualDriver)
  /// A virtual clock of the job's own (`draw`, `help` examples).
  case privateVirtual
}

/// The jobs of a session, by id. Ids count up from 1 and are never reused.
public final class JobTable: Sendable {
  private struct State {
    var jobs: [Int: Job] = [:]
    var order: [Int] = []
    var nextID = 1
  }

  private let state = Locked(State())
  public let console: Console
  public let session: Session
  /// Job tasks of this table still alive.
  public let liveTasks = Atomic<Int>(0)
  /// Called once a job has ended (the shell prints notices, scripts print failures). The closure
  /// sits in a struct: stored bare in a generic `Locked`, every `inout` access would re-abstract it
  /// and wrap it in one more thunk, making each call slower than the last.
  private struct EndHandler {
    let call: @Sendable (Job) -> Void
  }

  private let onEnd = Locked<EndHandler?>(nil)

  public init(console: Console, session: Session) {
    self.console = console
    self.session = session
  }

  public func setOnEnd(_ handler: @escaping @Sendable (Job) -> Void) {
    onEnd.withLock { $0 = EndHandler(call: handler) }
  }

  public var all: [Job] {
    state.withLock { state in state.order.compactMap { state.jobs[$0] } }
  }

  public func job(_ id: Int) -> Job? { state.withLock { $0.jobs[id] } }

  public var running: [Job] { all.filter { $0.state == .running } }

  /// Starts a job for `pipeline` (which must end with a sink) and returns it at once.
  @discardableResult
  public func start(
    _ pipeline: CheckedPipeline, background: Bool, clock choice: ClockChoice, observer: (any NodeObserver)? = nil
  ) -> Job {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let driver: VirtualDriver?
    let ownsDriver: Bool
    switch choice {
    case .real: (driver, ownsDriver) = (nil, false)
    case .virtual(let shared): (driver, ownsDriver) = (shared, false)
    case .privateVirtual: (driver, ownsDriver) = (VirtualDriver(), true)
    }
    let clock = driver.map { PipeClock(kind: .virtual($0)) } ?? .real()
    let context = JobContext(
      jobID: id, clock: clock, background: background, console: console, session: session, observer: observer)
    var compiler = PipelineCompiler(context: context)
    var buildError: (any Error)?
    var sequence = ValueSequence([Value]().async)
    var nodes: [Node] = []
    var owned: [Node] = []
    do {
      (sequence, nodes) = try compiler.build(pipeline)
      owned = compiler.owned
    } catch {
      buildError = error
    }
    let job = Job(
      id: id, text: pipeline.text, background: background, clockChoice: choice, context: context, nodes: nodes)
    state.withLock { state in
      state.jobs[id] = job
      state.order.append(id)
    }
    Job.liveTasks.add(1, ordering: .relaxed)
    liveTasks.add(1, ordering: .relaxed)
    let table = self
    let sink = pipeline.sink
    let built = (sequence, buildError, owned)
    let onEnd = self.onEnd.withLock { $0 }
    let console = self.console
    let operation: @Sendable () async -> Void = {
      let outcome: (JobState, PipelineError?)
      do {
        if let error = built.1 { throw error }
        if let sink {
          try await Sinks.run(sink, built.0, context, job)
        }
        outcome = (Task.isCancelled ? .cancelled : .finished, nil)
      } catch is CancellationError {
        outcome = (.cancelled, nil)
      } catch let error as PipelineError {
        outcome = Task.isCancelled ? (.cancelled, nil) : (.failed, error)
      } catch {
        outcome = (.failed, PipelineError(stage: pipeline.text, message: "\(error)"))
      }
      // Every node of the job has stopped before the job counts as ended.
      for node in built.2 { await node.waitUntilEnded() }
      Job.liveTasks.subtract(1, ordering: .relaxed)
      table.liveTasks.subtract(1, ordering: .relaxed)
      if job.shouldPauseClockOnEnd, !ownsDriver { driver?.hold() }
      job.end(outcome.0, failure: outcome.1) {
        console.flush()
        onEnd?.call(job)
      }
      if ownsDriver { driver?.finish() }
    }
    let task: Task<Void, Never>
    if let driver {
      task = Task(executorPreference: driver, operation: operation)
      if ownsDriver { driver.start() }
    } else {
      task = Task { await VirtualDriver.asForeign(operation) }
    }
    job.attach(task)
    return job
  }

  /// Node iterators alive in this table's jobs.
  public var liveIterators: Int { all.reduce(0) { $0 + $1.context.liveIterators.load(ordering: .relaxed) } }

  /// Cancels every running job; returns how many there were.
  @discardableResult
  public func cancelAll() -> Int {
    let running = self.running
    for job in running { job.cancel() }
    return running.count
  }
}
