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
  fileprivate struct EndHandler {
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
  /// virtual clock the job's task only runs while someone runs that clock. `watcher` gives the job,
  /// by its id, one more observer (step mode's) beside `observer`. `fusing: false` builds
  /// every stage as its own node (as `PIPESH_FUSION=off` does). `ownShares` builds the hot parts
  /// of its `share` fragments for it alone (`draw`, on a clock of its own), not the session's.
  @discardableResult
  public func start(
    _ pipeline: CheckedPipeline, background: Bool, clock choice: ClockChoice, observer: (any NodeObserver)? = nil,
    fusing: Bool = Instrumentation.fusion, ownShares: Bool = false,
    watcher: ((Int) -> (any NodeObserver)?)? = nil, output: (any JobOutput)? = nil, pacing: Pacing? = nil
  ) -> Job {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    var observer = observer
    if let watching = watcher?(id) {
      observer = observer.map { ObserverPair($0, watching) } ?? watching
    }
    let clock: PipeClock
    switch choice {
    case .real: clock = PipeClock(kind: .real(session.origin))
    case .virtual(let driver): clock = PipeClock(kind: .virtual(driver))
    }
    if let recorder = recorder.withLock({ $0 }) {
      recorder.started(job: id, pipeline, time: clock.now.offset)
      observer = observer.map { ObserverPair($0, recorder) } ?? recorder
    }
    let context = JobContext(
      jobID: id, clock: clock, background: background, console: output ?? console, session: session,
      fragments: ownShares ? ShareFragments() : session.fragments, observer: observer, fusing: fusing,
      marblesFromStart: pacing != nil)
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
    let run = JobRun(
      table: self, job: job, pipeline: pipeline, sinkNode: sinkNode, sequence: built.map(\.sequence),
      onEnd: onEnd.withLock { $0 }, pacing: pacing)
    context.tasks.setNodes(nodes)
    let task = TaskBook.startingJob(context.tasks) { () -> Task<Void, Never> in
      switch choice {
      case .virtual(let driver): driver.task { await run.run(foreign: false) }
      case .real: Task { await run.run(foreign: true) }
      }
    }
    job.attach(task)
    return job
  }

  /// How the job ended, from what its sink threw.
  @inline(never)
  fileprivate static func outcome(_ failure: (any Error)?, _ pipeline: CheckedPipeline) -> (JobState, PipelineError?) {
    switch failure {
    case nil: return (Task.isCancelled ? .cancelled : .finished, nil)
    case is CancellationError: return (.cancelled, nil)
    case let error as PipelineError: return Task.isCancelled ? (.cancelled, nil) : (.failed, error)
    case let error?: return (.failed, PipelineError(stage: pipeline.text, message: "\(error)"))
    }
  }

  /// A job's last step, once every node of it has let go.
  @inline(never)
  fileprivate func ended(_ job: Job, _ outcome: (JobState, PipelineError?), onEnd: EndHandler?) {
    for node in Node.flattened(job.nodes) { node.endIfNeverStarted(jobCancelled: job.context.cancelRequested) }
    Job.liveTasks.subtract(1, ordering: .relaxed)
    liveTasks.subtract(1, ordering: .relaxed)
    let console = self.console
    job.end(outcome.0, failure: outcome.1) {
      console.flush()
      onEnd?.call(job)
    }
  }

  /// Tasks running now for this table's jobs: theirs and their operators'.
  public var liveTaskCount: Int { all.reduce(0) { $0 + $1.context.tasks.live } }

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

/// What a job's task runs: the compiled pipeline until its sink takes it, and what the job's end
/// needs. The task's closure holds this one object (a closure holding a handle holding a lock
/// were three allocations), and `run` is a method, not a closure in a generic wrapper: an idle
/// job's task keeps no thunk's or wrapper's frame.
final class JobRun: @unchecked Sendable {
  // @unchecked: `sequence` is set here, before the job's task is made, and then read and cleared by
  // that task alone (`sinkLoop`, once); `outcome` is written and read by that task alone.
  private let table: JobTable
  private let job: Job
  private let pipeline: CheckedPipeline
  private let sinkNode: Node?
  private let onEnd: JobTable.EndHandler?
  /// The schedule its sink asks on (`validate`), or nil: as fast as it can.
  private let pacing: Pacing?
  /// The pipeline's sequence until the sink takes it: after that nothing but the running iterators
  /// holds the pipeline's sequences.
  private var sequence: Result<ValueSequence, any Error>?

  fileprivate init(
    table: JobTable, job: Job, pipeline: CheckedPipeline, sinkNode: Node?,
    sequence: Result<ValueSequence, any Error>, onEnd: JobTable.EndHandler?, pacing: Pacing?
  ) {
    self.pacing = pacing
    self.table = table
    self.job = job
    self.pipeline = pipeline
    self.sinkNode = sinkNode
    self.sequence = sequence
    self.onEnd = onEnd
  }

  /// The job's task: runs the sink, waits until every node has let go, and records the end. A
  /// real-clock job's task is marked as such while it runs (`VirtualDriver.markForeign`).
  func run(foreign: Bool) async {
    let mark = foreign ? VirtualDriver.markForeign() : nil
    await runSink()
    await letGo()
    end()
    VirtualDriver.unmarkForeign(mark)
  }

  /// The job ends only after every node of it has let go (iterators freed) and every task its
  /// operators started has ended. Apart from `run`: each await there takes room in its frame, which
  /// every idle job keeps (this one cost a kilobyte a job).
  @inline(never)
  private func letGo() async {
    await job.context.liveNodes.waitUntilZero()
    await job.context.tasks.waitForTasks(own: false)
  }

  /// Records the job's end (apart from `run`: the arguments would take room in its frame).
  @inline(never)
  private func end() {
    table.ended(job, outcome, onEnd: onEnd)
  }

  /// How the job ended, once its sink has: kept here, not in the frame of `run`, which every idle
  /// job keeps.
  private var outcome: (JobState, PipelineError?) = (.running, nil)

  /// Runs the sink over the pipeline and records how the job ended. The pipeline's sequences are
  /// released when this returns, so operators that live as long as their sequence (`share`) stop.
  @inline(never)
  private func runSink() async {
    // Awaiting only: the frame of this function is part of an idle job's memory. The sink's loop
    // is made before it, so no checked stage sits in the frame.
    var failure: (any Error)?
    do {
      var loop = try sinkLoop()
      if let pacing {
        try await loop.runPaced(pacing)
      } else {
        try await loop.run()
      }
    } catch {
      failure = error
    }
    outcome = JobTable.outcome(failure, pipeline)
  }

  @inline(never)
  private func sinkLoop() throws -> Sinks.Loop {
    let taken = sequence ?? .failure(CancellationError())
    sequence = nil
    let sequence = try taken.get()
    guard let sink = pipeline.sink, let sinkNode else {
      throw PipelineError(stage: pipeline.text, message: "the pipeline has no sink (a bug: please report it)")
    }
    return try Sinks.Loop(sink, sequence, job.context, sinkNode)
  }
}
