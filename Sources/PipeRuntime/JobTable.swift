import Locking
import PipeEvaluator
import PipeSema
import Synchronization
import VirtualTime

/// Which clock a job runs on.
public enum ClockChoice: Sendable {
  /// The real `ContinuousClock`.
  case real
  /// A virtual clock: the session's, or one of its own (`draw`, `help` examples).
  case virtual(VirtualDriver)
}

/// The jobs of a session, by id. Ids count up from 1 and are never reused.
public final class JobTable: Sendable {
  private struct State {
    var jobs: [Int: Job] = [:]
    var order: [Int] = []
    var nextID = 1
  }

  private let state = Locked(State())
  public let console: any JobOutput
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

  public init(console: any JobOutput, session: Session) {
    self.console = console
    self.session = session
  }

  /// Sees every job started from now on (`pipesh --record`).
  public let recorder = Locked<(any SessionRecorder)?>(nil)

  public func setOnEnd(_ handler: @escaping @Sendable (Job) -> Void) {
    onEnd.withLock { $0 = EndHandler(call: handler) }
  }

  public var all: [Job] {
    state.withLock { state in state.order.compactMap { state.jobs[$0] } }
  }

  public func job(_ id: Int) -> Job? { state.withLock { $0.jobs[id] } }

  public var running: [Job] { all.filter { $0.state == .running } }

  /// Starts a job for `pipeline` (which must end with a sink) and returns it at once. On a
  /// virtual clock the job's task only runs while someone runs that clock. `fusing: false` builds
  /// every stage as its own node (as `PIPESH_FUSION=off` does). `ownShares` builds the hot parts
  /// of its `share` fragments for it alone (`draw`, on a clock of its own), not the session's.
  @discardableResult
  public func start(
    _ pipeline: CheckedPipeline, background: Bool, clock choice: ClockChoice, observer: (any NodeObserver)? = nil,
    fusing: Bool = Instrumentation.fusion, ownShares: Bool = false
  ) -> Job {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let clock: PipeClock
    switch choice {
    case .real: clock = PipeClock(kind: .real(session.origin))
    case .virtual(let driver): clock = PipeClock(kind: .virtual(driver))
    }
    var observer = observer
    if let recorder = recorder.withLock({ $0 }) {
      recorder.started(job: id, pipeline, time: clock.now.offset)
      observer = observer.map { ObserverPair($0, recorder) } ?? recorder
    }
    let context = JobContext(
      jobID: id, clock: clock, background: background, console: console, session: session,
      fragments: ownShares ? ShareFragments() : session.fragments, observer: observer, fusing: fusing)
    context.resolveChannels(of: pipeline)
    var compiler = PipelineCompiler(context: context, fusing: fusing)
    let built = Result { try compiler.build(pipeline) }
    let sinkNode = pipeline.sink.map { compiler.sinkNode($0) }
    let pipelineNodes = (try? built.get().nodes) ?? []
    pipelineNodes.last?.downstream = sinkNode
    let nodes = pipelineNodes + [sinkNode].compactMap { $0 }
    let job = Job(id: id, text: pipeline.text, background: background, context: context, nodes: nodes)
    state.withLock { state in
      state.jobs[id] = job
      state.order.append(id)
    }
    Job.liveTasks.add(1, ordering: .relaxed)
    liveTasks.add(1, ordering: .relaxed)
    let table = self
    let handle = PipelineHandle(built.map(\.sequence))
    let onEnd = self.onEnd.withLock { $0 }
    let operation: @Sendable () async -> Void = {
      let outcome = await Self.runSink(handle, pipeline, sinkNode, context)
      // The job ends only after every node of it has let go: operator tasks ended, iterators freed.
      await context.liveNodes.waitUntilZero()
      table.ended(job, outcome, onEnd: onEnd)
    }
    let task: Task<Void, Never>
    switch choice {
    case .virtual(let driver): task = Task(executorPreference: driver, operation: operation)
    case .real: task = Task { await VirtualDriver.asForeign(operation) }
    }
    job.attach(task)
    return job
  }

  /// Runs the sink over the pipeline and says how the job ended. The pipeline's sequences are
  /// released when this returns, so operators that live as long as their sequence (`share`) stop.
  private static func runSink(
    _ handle: PipelineHandle, _ pipeline: CheckedPipeline, _ sinkNode: Node?, _ context: JobContext
  ) async -> (JobState, PipelineError?) {
    // Awaiting only: the frame of this function is part of an idle job's memory. The sink's loop
    // is made before it, so no checked stage sits in the frame.
    var failure: (any Error)?
    do {
      var loop = try sinkLoop(handle, pipeline, sinkNode, context)
      try await loop.run()
    } catch {
      failure = error
    }
    return outcome(failure, pipeline)
  }

  @inline(never)
  private static func sinkLoop(
    _ handle: PipelineHandle, _ pipeline: CheckedPipeline, _ sinkNode: Node?, _ context: JobContext
  ) throws -> Sinks.Loop {
    let sequence = try handle.take().get()
    guard let sink = pipeline.sink, let sinkNode else {
      throw PipelineError(stage: pipeline.text, message: "the pipeline has no sink (a bug: please report it)")
    }
    return try Sinks.Loop(sink, sequence, context, sinkNode)
  }

  /// How the job ended, from what its sink threw.
  @inline(never)
  private static func outcome(_ failure: (any Error)?, _ pipeline: CheckedPipeline) -> (JobState, PipelineError?) {
    switch failure {
    case nil: return (Task.isCancelled ? .cancelled : .finished, nil)
    case is CancellationError: return (.cancelled, nil)
    case let error as PipelineError: return Task.isCancelled ? (.cancelled, nil) : (.failed, error)
    case let error?: return (.failed, PipelineError(stage: pipeline.text, message: "\(error)"))
    }
  }

  /// A job's last step, once every node of it has let go.
  @inline(never)
  private func ended(_ job: Job, _ outcome: (JobState, PipelineError?), onEnd: EndHandler?) {
    for node in Node.flattened(job.nodes) { node.endIfNeverStarted(jobCancelled: job.context.cancelRequested) }
    Job.liveTasks.subtract(1, ordering: .relaxed)
    liveTasks.subtract(1, ordering: .relaxed)
    let console = self.console
    job.end(outcome.0, failure: outcome.1) {
      console.flush()
      onEnd?.call(job)
    }
  }

  /// Nodes alive in this table's jobs.
  public var liveNodes: Int { all.reduce(0) { $0 + $1.context.liveNodes.value } }

  /// Cancels every running job; returns how many there were.
  @discardableResult
  public func cancelAll() -> Int {
    let running = self.running
    for job in running { job.cancel() }
    return running.count
  }
}

/// The compiled pipeline of a job until its sink takes it: after that nothing but the running
/// iterators holds the pipeline's sequences.
final class PipelineHandle: Sendable {
  private let sequence: Locked<Result<ValueSequence, any Error>?>

  init(_ sequence: Result<ValueSequence, any Error>) {
    self.sequence = Locked(sequence)
  }

  func take() -> Result<ValueSequence, any Error> {
    sequence.withLock { stored in
      defer { stored = nil }
      return stored ?? .failure(CancellationError())
    }
  }
}
