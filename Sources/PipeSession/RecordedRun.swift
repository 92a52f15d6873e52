import Locking
import PipeEvaluator
import PipeRuntime
import PipeSema
import VirtualTime

/// A pipeline run on a virtual clock of its own, from start to end or to a horizon, with every
/// node's events: what `draw` and `compare` show, and their pictures.
public struct RecordedRun: Sendable {
  /// Why the run was stopped before the pipeline ended.
  public enum Stop: Sendable {
    /// It had not ended at the horizon.
    case horizon
    /// It had made `DrawObserver.maximumEvents` events.
    case events
  }

  /// Every node's events.
  public let observer: DrawObserver
  /// Every node, source first, a combinator's inputs and a flatMap's pipelines before it; an
  /// implicit sink is left out.
  public let nodes: [Node]
  /// The job's pipeline, as a tree.
  public let roots: [Node]
  /// Whether the pipeline had no sink of its own (its quiet one has no lane).
  public let implicitSink: Bool
  /// How far it was run at most, from its start.
  public let horizon: Duration
  /// Why it was stopped before it ended, if it was.
  public let stop: Stop?
  /// How it failed, if it did.
  public let failure: PipelineError?
  /// The job number it ran as (`draw` and `compare` take one, as every run does).
  public let jobID: Int
  /// How the job ended.
  public let state: JobState

  /// A node's events, as they came.
  public func events(for node: Node) -> [(time: Duration, kind: NodeEventKind)] {
    observer.events(for: node)
  }
}

extension Engine {
  /// Runs `pipeline` on a virtual clock of its own (the session's stands still meanwhile) until it
  /// ends, makes `DrawObserver.maximumEvents` events, or reaches `horizon`, and returns its nodes'
  /// events. An implicit sink is replaced by a quiet one. Its share fragments are its own. Ctrl-C
  /// cancels it as it does a foreground job. With `quiet`, its failure and what it prints are the
  /// caller's to report. With `printing`, an implicit sink prints as it does in a statement
  /// (`pipesh --page` draws a bare pipeline and shows what it prints); it still has no lane.
  /// The clock stops with the job: tasks it leaves behind (`spawn`'s) run as far as they can at its
  /// end, what they then wait on ends, and all that is recorded before this returns.
  /// With `order`, choices among tasks runnable at one instant follow it (`explore`, a replayed
  /// token); with `table`, the job is one of that table's (`explore`'s orders take no job numbers
  /// of the session), is not kept for `why`, and prints into `output`. `watching` sees every
  /// event too (`trace P order:` prints them).
  public func recordedRun(
    _ pipeline: CheckedPipeline, horizon: Duration, quiet: Bool = false, printing: Bool = false,
    order: ChoiceOrder? = nil, table: JobTable? = nil, output: (any JobOutput)? = nil,
    watching: (any NodeObserver)? = nil
  ) async -> RecordedRun {
    let observer = DrawObserver()
    let drained = printing ? pipeline : pipeline.withQuietSinkIfImplicit()
    let clock = VirtualDriver(order: order)
    let job = (table ?? jobs).start(
      drained, background: false, clock: .virtual(clock),
      observer: watching.map { ObserverPair(observer, $0) } ?? observer, ownShares: true,
      output: output ?? (quiet ? DiscardedOutput() : nil))
    if quiet, table == nil { quietJobs.withLock { _ = $0.insert(job.id) } }
    observer.onLimit.withLock { $0 = { job.cancel() } }
    if table == nil { keep(observer, of: job.id) }
    // A pipeline that does not end is stopped at the horizon.
    let context = job.context
    let stopped = Locked(false)
    let limit = Task(executorPreference: clock) {
      let end = context.start.advanced(by: horizon)
      guard (try? await context.clock.sleep(until: end, tolerance: nil)) != nil else { return }
      stopped.withLock { $0 = true }
      job.cancel()
    }
    await runForeground(job, on: clock)
    await clock.perform(andWait: { limit.cancel() })
    // The clock stops with the job. Tasks it left behind (`spawn`'s) run on it as far as they can at
    // this instant and what they then wait on ends; the thread is waited for before anything is
    // read, or what they record would race with the views (issue 48).
    clock.shutdown(waiting: .seconds(5))
    let implicitSink = pipeline.hasImplicitSink
    let stop: RecordedRun.Stop? = observer.overflowed ? .events : stopped.withLock { $0 } ? .horizon : nil
    return RecordedRun(
      observer: observer, nodes: Node.flattened(job.nodes).filter { !(implicitSink && $0.isSink) }, roots: job.nodes,
      implicitSink: implicitSink, horizon: horizon, stop: stop, failure: job.failure, jobID: job.id, state: job.state)
  }
}
