import AsyncAlgorithms
import Locking
import PipeSema
import Synchronization
import VirtualTime

/// What every node of one job shares: its id, clock, output, and the session's channels.
public final class JobContext: Sendable {
  public let jobID: Int
  public let clock: PipeClock
  public let start: PipeInstant
  /// Background job output is prefixed `[N] `.
  public let background: Bool
  let console: any JobOutput
  let session: Session
  /// Where its `share` fragments' hot parts are: the session's, or a `draw`'s own.
  let fragments: ShareFragments
  let observer: (any NodeObserver)?
  private let cancelFlag = Atomic<Bool>(false)

  /// Whether someone cancelled the job (rather than a node stopping its input).
  public var cancelRequested: Bool { cancelFlag.load(ordering: .relaxed) }

  func markCancelled() {
    if !cancelFlag.exchange(true, ordering: .relaxed) {
      cancelTime.store(sessionTime.wholeNanoseconds, ordering: .relaxed)
    }
  }

  /// When someone first cancelled the job (session time, in nanoseconds); -1 before.
  private let cancelTime = Atomic<Int64>(-1)

  /// When someone first cancelled the job (session time), nil while nobody has.
  public var cancelledAt: Duration? {
    let nanoseconds = cancelTime.load(ordering: .relaxed)
    return nanoseconds < 0 ? nil : .nanoseconds(nanoseconds)
  }

  /// What nodes of this job handed on after their task was cancelled (the lint
  /// `ignored-cancellation`).
  public var lateHandOffs: [LateHandOff] { shared.withLock { $0.lateHandOffs } }

  func handedOnAfterCancel(_ handOff: LateHandOff) {
    shared.withLock { $0.lateHandOffs.append(handOff) }
  }

  /// The nodes in a wait that ignores cancellation now (`work … cooperative: false`), by id.
  public var ignoringWaits: Set<Int> { shared.withLock { Set($0.ignoringWaits.keys) } }

  /// Node `id` begins (true) or ends (false) a wait that ignores cancellation.
  func ignoringWait(_ id: Int, _ begins: Bool) {
    shared.withLock {
      $0.ignoringWaits[id, default: 0] += begins ? 1 : -1
      if $0.ignoringWaits[id] == 0 { $0.ignoringWaits[id] = nil }
    }
  }

  /// Nodes of this job still alive; 0 once the job has let go of everything.
  public let liveNodes = LiveCount()
  /// Nodes of the pipelines `spawn` started for this job, which outlive it (the job's end does
  /// not wait for them; `stats` counts them).
  public let outlivingNodes = LiveCount()
  /// Whether runs of synchronous stages become one node (also in `flatMap` bodies built later).
  let fusing: Bool
  /// The last range of node ids handed to a `flatMap` body.
  private let bodyNodeIDs = Atomic<Int>(0)

  /// The start of a range of node ids for one `flatMap` body (ids only tell a job's nodes apart).
  func reserveNodeIDs() -> Int {
    bodyNodeIDs.add(1, ordering: .relaxed).newValue * 100_000
  }

  /// The tasks that ran for the job.
  public let tasks: JobTasks

  /// Whether its `marble` sources count their steps from the job's start, not from when they are
  /// first asked: a `validate` run's, as AA's validation inputs count from the test's start (an
  /// operator that makes its input's iterator at its own first request, `buffer`, `merge`, would
  /// otherwise shift the input's steps when the consumer asks late).
  public let marblesFromStart: Bool

  init(
    jobID: Int, clock: PipeClock, background: Bool, console: any JobOutput, session: Session,
    fragments: ShareFragments, observer: (any NodeObserver)?, fusing: Bool, tasks: JobTasks? = nil,
    marblesFromStart: Bool = false
  ) {
    self.marblesFromStart = marblesFromStart
    self.tasks = tasks ?? JobTasks(jobID: jobID, clock: clock, observer: observer, ids: session.taskIDs)
    self.fragments = fragments
    self.fusing = fusing
    self.jobID = jobID
    self.clock = clock
    self.start = clock.now
    self.background = background
    self.console = console
    self.session = session
    self.observer = observer
  }

  /// The context of the hot part of a `share` fragment this job builds, which other jobs read too:
  /// the same, but one nobody cancels. Cancelling one reader must not stop the others; the share
  /// stops when its last reader stops asking.
  func sharedFragment() -> JobContext {
    JobContext(
      jobID: jobID, clock: clock, background: background, console: console, session: session,
      fragments: fragments, observer: observer, fusing: fusing, tasks: tasks, marblesFromStart: marblesFromStart)
  }

  /// The context of what a job starts to outlive it (`spawn`'s pipelines): the same, but one the
  /// job's cancellation does not reach.
  func outlivingTheJob() -> JobContext { sharedFragment() }

  /// The channels this job uses, each looked up once: a `flatMap` body built after `close` removed
  /// the name sees the channel the job started with (now closed), not a new one nobody sends to.
  private let shared = Locked(Shared())

  /// What one lock guards (a lock each would cost every job an allocation more).
  private struct Shared {
    var channels: [String: SessionChannel] = [:]
    /// Elements a node that ignores cancellation (`work … cooperative: false`) handed on after its
    /// task was cancelled, in order.
    var lateHandOffs: [LateHandOff] = []
    var ignoringWaits: [Int: Int] = [:]
  }

  /// The session's channel `name`, as this job first saw it.
  func channel(_ name: String) -> SessionChannel {
    if let known = shared.withLock({ $0.channels[name] }) { return known }
    let channel = session.read(name)
    return shared.withLock { shared in
      if let known = shared.channels[name] { return known }
      shared.channels[name] = channel
      return channel
    }
  }

  /// Looks up every channel `pipeline` names (in its inputs and bodies too), when the job starts.
  func resolveChannels(of pipeline: CheckedPipeline) {
    for channel in pipeline.channelNames { _ = self.channel(channel) }
  }

  /// Whether anyone records node events (trace, draw, diagram); checked on the per-element path.
  var observing: Bool { observer != nil }

  /// Time since the job started, on its clock.
  public var elapsed: Duration { start.duration(to: clock.now) }

  /// Time on the session's clock: since the session began (`print time:`, `tap time:` and `trace`
  /// stamp with it, so lines of different jobs line up).
  public var sessionTime: Duration { clock.now.offset }

  /// How many consumers iterate the session's stream `name` now (0 for another kind of name).
  public func consumers(ofStream name: String) -> Int {
    guard case .stream(let stream) = session.existingChannel(name) else { return 0 }
    return stream.consumers
  }

  func record(_ node: Node, _ kind: NodeEvent.Kind) {
    observer?.record(NodeEvent(time: sessionTime, jobID: jobID, node: node, kind: kind))
  }

  // The one place a node's life is counted: sources, operators, fused runs and sinks all start
  // and end their nodes here.

  /// A node was asked for its first element.
  func begin(_ node: Node) {
    if node.started() { record(node, .start) }
  }

  /// A node's input ended, or it had all it needed; only a node's first end counts.
  func finish(_ node: Node) {
    if node.ended(.finished) { record(node, .finished) }
  }

  /// A node threw `error`.
  func fail(_ node: Node, _ error: any Error) {
    let message = "\(error)"
    if node.ended(.failed, failure: message) { record(node, .failed(message)) }
  }

  /// A node stopped because its consumer stopped asking, or its job was cancelled (a sink: only
  /// the latter has a cause).
  func cancel(_ node: Node) {
    guard node.ended(.cancelled, cause: node.cancelCause(jobCancelled: cancelRequested)) else { return }
    record(node, .cancelled(node.reason ?? ""))
  }

  /// Prints a line of the job's output.
  func emit(_ text: String) {
    let line = background ? "[\(jobID)] \(text)" : text
    console.emit(line)
    observer?.printed(line, time: sessionTime, jobID: jobID)
  }
}

/// An element a node that ignores cancellation handed on after its task was cancelled: it finished
/// the wait it was in, then passed the element to its consumer.
public struct LateHandOff: Sendable {
  /// The node, by id within its job.
  public let nodeID: Int
  public let value: Value
  /// When its wait began and when it handed the element on (session time).
  public let waitBegan: Duration
  public let handedAt: Duration
}
