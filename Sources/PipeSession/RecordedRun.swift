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
  /// Every node as it ended, source first, a combinator's inputs and a flatMap's pipelines before
  /// it; an implicit sink is left out.
  public let nodes: [NodeSnapshot]
  /// The job's pipeline, as a tree.
  public let roots: [NodeSnapshot]
  /// The live nodes, for what the engine works out of them (`accounts`, `shareHoldings`).
  let liveNodes: [Node]
  let liveRoots: [Node]
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
  public func events(for node: NodeSnapshot) -> [(time: Duration, kind: NodeEventKind)] {
    observer.events(for: node.identity)
  }

  init(
    observer: DrawObserver, nodes: [Node], roots: [Node], implicitSink: Bool, horizon: Duration, stop: Stop?,
    failure: PipelineError?, jobID: Int, state: JobState
  ) {
    self.observer = observer
    liveNodes = nodes
    liveRoots = roots
    self.roots = NodeSnapshot.of(roots)
    // In `Node.flattened`'s order: a node's inputs, then the pipelines it built, then the node.
    func flattened(_ nodes: [NodeSnapshot]) -> [NodeSnapshot] {
      nodes.flatMap { node in node.inputs.flatMap(flattened) + node.children.flatMap(flattened) + [node] }
    }
    self.nodes = flattened(self.roots).filter { !(implicitSink && $0.isSink) }
    self.implicitSink = implicitSink
    self.horizon = horizon
    self.stop = stop
    self.failure = failure
    self.jobID = jobID
    self.state = state
  }

  /// `why`'s account of every node (what a queue held, what its policy dropped), by node.
  public var accounts: [ObjectIdentifier: ElementFates.Account] {
    let fates = ElementFates(nodes: liveRoots, history: observer)
    return Dictionary(fates.accounts.map { ($0.node.identity, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// What a `share` held for its readers, from what was recorded: the elements its input passed
  /// to it, less what its slowest reader (of those that had begun to read) had taken, at each
  /// instant that changed. Its readers are the readings of its fragment (`t` of `let t = … |
  /// share`), or, inline, its one consumer, whose answers are its own elements. Nil for any other
  /// node, and for a share whose input was not recorded.
  public func shareHoldings(of node: NodeSnapshot) -> [ElementFates.Holding]? {
    guard let share = liveNodes.first(where: { ObjectIdentifier($0) == node.identity }),
      share.facts?.kind == .share,
      let input = liveNodes.first(where: { $0.downstream === share })
    else { return nil }
    func taken(_ node: Node) -> [Duration] {
      observer.events(for: node).compactMap { event in
        if case .element = event.kind { event.time } else { nil }
      }
    }
    let readings = liveNodes.filter { node in
      node.kind == .sharedFragment && Node.flattened(node.fragment).contains { $0 === share }
    }
    let readers = readings.isEmpty ? [taken(share)] : readings.map(taken)
    let pulled = taken(input)
    let instants = Set(pulled + readers.flatMap { $0 }).sorted()
    var holdings: [ElementFates.Holding] = []
    for instant in instants {
      let started = readers.filter { ($0.first ?? .seconds(Int64.max)) <= instant }
      let slowest = started.map { reader in reader.count { $0 <= instant } }.min() ?? 0
      let held = max(0, pulled.count { $0 <= instant } - slowest)
      if held != holdings.last?.held ?? 0 { holdings.append(ElementFates.Holding(time: instant, held: held)) }
    }
    return holdings
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
  /// token); `apart`, the job is one of a job table of its own (`explore`'s orders take no job
  /// numbers of the session) and is not kept for `why`. With `printedInto`, what it prints is kept
  /// there instead of printed. `watching` sees every event too (`trace P order:` prints them).
  public func recordedRun(
    _ pipeline: CheckedPipeline, horizon: Duration, quiet: Bool = false, printing: Bool = false,
    order: ChoiceOrder? = nil, apart: Bool = false, printedInto lines: Locked<[String]>? = nil,
    watching: (any TraceWatcher)? = nil
  ) async -> RecordedRun {
    let table = apart ? JobTable(console: DiscardedOutput(), session: session) : nil
    let output = lines.map(CollectedOutput.init)
    let observer = DrawObserver()
    let drained = printing ? pipeline : pipeline.withQuietSinkIfImplicit()
    let clock = VirtualDriver(order: order, runsKnownCode: true)
    let job = (table ?? jobs).start(
      drained, background: false, clock: .virtual(clock),
      observer: watching.map { ObserverPair(observer, WatcherObserver($0)) } ?? observer, ownShares: true,
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

/// What a job printed, kept instead of printed (`explore` compares it across orders; `draw P
/// order:` holds it until the order is known to fit).
final class CollectedOutput: JobOutput {
  let lines: Locked<[String]>

  init(into lines: Locked<[String]>) {
    self.lines = lines
  }

  func emit(_ line: String) { lines.withLock { $0.append(line) } }
  func flush() {}
}
