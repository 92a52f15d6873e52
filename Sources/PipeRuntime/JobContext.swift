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

/// What outlives a job within one shell session: channels and the hot parts of `share` fragments.
public final class Session: Sendable {
  private let channels = Locked<[String: SessionChannel]>([:])
  /// Channels closed or failed (they stay ended; their names may be used again for new ones).
  private let ended = Locked<Set<ObjectIdentifier>>([])
  /// Streams closed and not read again since: an `AsyncStream` yields nothing once finished, so a
  /// `send` to one is an error (a consumer's use of the name makes a new stream).
  private let closedStreams = Locked<Set<String>>([])
  /// Channels some statement fails (`fail NAME "…"`): made as `AsyncThrowingChannel`s.
  private let failing = Locked<Set<String>>([])
  /// Names declared as streams and subjects: made so on first use.
  private let endpoints = Locked<[String: Endpoint]>([:])
  /// The hot parts of the session's `share` fragments.
  let fragments = ShareFragments()
  /// The ids of its jobs' tasks.
  let taskIDs = TaskIDs()
  /// Set by the interactive shell: standard input is the terminal the line editor reads, and no
  /// job may read it (it would take the keys typed at the prompt).
  public let terminalInputIsTheEditors = Atomic<Bool>(false)

  /// The session's start on the real clock: real-time stamps of all its jobs count from it, as
  /// virtual-time stamps count from the virtual clock's start.
  public let origin = ContinuousClock.now

  public init() {}

  /// Names channels that some statement fails: from now on they are made as
  /// `AsyncThrowingChannel`s (one made before stays what it is).
  public func willFail(_ names: Set<String>) {
    failing.withLock { $0.formUnion(names) }
  }

  /// Names declared as streams and subjects: from now on they are made so (one made before stays
  /// what it is).
  public func declare(_ endpoints: [String: Endpoint]) {
    self.endpoints.withLock { $0.merge(endpoints) { _, new in new } }
  }

  /// The channel named `name`, made on first use.
  public func channel(_ name: String) -> SessionChannel {
    let throwing = failing.withLock { $0.contains(name) }
    let endpoint = endpoints.withLock { $0[name] }
    return channels.withLock { channels in
      if let channel = channels[name] { return channel }
      let channel: SessionChannel =
        switch endpoint {
        case .stream(let buffering)?: .stream(StreamEndpoint(name: name, buffering: buffering))
        case .subject(let initial)?: .subject(SubjectEndpoint(initial: initial))
        case nil: throwing ? .throwing(AsyncThrowingChannel()) : .plain(AsyncChannel())
        }
      channels[name] = channel
      return channel
    }
  }

  /// Finishes the channel; a later use of the name makes a new one.
  public func close(_ name: String) {
    let channel = channels.withLock { $0.removeValue(forKey: name) }
    if case .stream = channel { closedStreams.withLock { _ = $0.insert(name) } }
    if let channel { ended.withLock { _ = $0.insert(channel.identity) } }
    channel?.finish()
  }

  /// The channel `name` if it is made already (nothing is made here).
  func existingChannel(_ name: String) -> SessionChannel? {
    channels.withLock { $0[name] }
  }

  /// Whether `name` is a stream closed since it was last read.
  public func isClosedStream(_ name: String) -> Bool {
    closedStreams.withLock { $0.contains(name) }
  }

  /// A job reads `name`: a closed stream of that name is made anew.
  func read(_ name: String) -> SessionChannel {
    closedStreams.withLock { _ = $0.remove(name) }
    return channel(name)
  }

  /// Whether the channel was closed or failed.
  func isEnded(_ channel: SessionChannel) -> Bool {
    ended.withLock { $0.contains(channel.identity) }
  }

  /// Fails the channel: every consumer's job fails with `message`; a later use of the name makes
  /// a new one. False when the channel is an `AsyncChannel`, which cannot fail.
  public func fail(_ name: String, message: String) -> Bool {
    let channel = channels.withLock { channels -> SessionChannel? in
      guard case .throwing = channels[name] else { return nil }
      return channels.removeValue(forKey: name)
    }
    guard case .throwing(let throwing) = channel else {
      // Not made yet: nobody consumes it, and nothing is to fail; made as AsyncChannel: it cannot.
      return channels.withLock { $0[name] == nil } && failing.withLock { $0.contains(name) }
    }
    ended.withLock { _ = $0.insert(ObjectIdentifier(throwing)) }
    throwing.fail(ChannelFailure(channel: name, message: message))
    return true
  }

  public var channelNames: [String] { channels.withLock { Array($0.keys).sorted() } }

  /// The `share` fragments whose hot part has nodes alive, by name, with how many.
  public var liveSharedNodes: [(fragment: String, nodes: Int)] { fragments.liveNodes }
}

/// What a name `send` and `close` reach: swift-async-algorithms' `AsyncChannel`, or, for a
/// channel some statement fails, its `AsyncThrowingChannel`; an `AsyncStream` (`stream NAME`); or
/// pipesh's current value (`subject NAME`).
public enum SessionChannel: Sendable {
  case plain(AsyncChannel<Value>)
  case throwing(AsyncThrowingChannel<Value, any Error>)
  case stream(StreamEndpoint)
  case subject(SubjectEndpoint)

  /// Gives `value` to a consumer: a channel waits until one takes it (or the channel ends); a
  /// stream yields it and a subject sets it, without waiting.
  public func send(_ value: Value) async {
    switch self {
    case .plain(let channel): await channel.send(value)
    case .throwing(let channel): await channel.send(value)
    case .stream(let stream): _ = stream.yield(value)
    case .subject(let subject): subject.send(value)
    }
  }

  /// Which channel this is.
  var identity: ObjectIdentifier {
    switch self {
    case .plain(let channel): ObjectIdentifier(channel)
    case .throwing(let channel): ObjectIdentifier(channel)
    case .stream(let stream): ObjectIdentifier(stream)
    case .subject(let subject): ObjectIdentifier(subject)
    }
  }

  func finish() {
    switch self {
    case .plain(let channel): channel.finish()
    case .throwing(let channel): channel.finish()
    case .stream(let stream): stream.finish()
    case .subject(let subject): subject.finish()
    }
  }

  /// The elements for a consumer: `stage` (node `nodeID`) of job `jobID`.
  func elements(for jobID: Int, stage: String, nodeID: Int) -> ValueSequence {
    switch self {
    case .plain(let channel): ValueSequence(channel)
    case .throwing(let channel): ValueSequence(channel)
    case .stream(let stream): stream.elements(for: jobID, stage: stage, nodeID: nodeID)
    case .subject(let subject): subject.elements()
    }
  }

  /// What backs it, as `inspect` and `help channel` name it.
  public var implementation: String {
    switch self {
    case .plain: "AsyncChannel"
    case .throwing: "AsyncThrowingChannel"
    case .stream(let stream): "AsyncStream (buffering: \(stream.buffering))"
    case .subject: "pipesh's current value (AsyncStream per consumer, newest kept)"
    }
  }
}

/// The error `fail NAME "MESSAGE"` ends a channel with.
struct ChannelFailure: Error, CustomStringConvertible {
  let channel: String
  let message: String

  var description: String { message }
}

/// The hot parts of `share` fragments, built by the first job that reads each: the session's, or
/// a `draw`'s own (it runs on a clock of its own, where the session's would never move).
final class ShareFragments: Sendable {
  private let shared = Locked<[Int: SharedFragment]>([:])

  /// The hot part of a `share` fragment, built by the first job that uses it.
  private struct SharedFragment {
    let name: String
    let sequence: ValueSequence
    /// Its nodes, shown in the tree of every job that reads it.
    let nodes: [Node]
    /// Its nodes still alive: they outlive the jobs that built them.
    let liveNodes: LiveCount
  }

  /// The shared sequence of binding `id` (fragment `name`) and its nodes, built by `build` on first
  /// use with the count its nodes are live in.
  func shared(
    _ id: Int, name: String, build: (LiveCount) throws -> (ValueSequence, [Node])
  ) throws -> (ValueSequence, [Node]) {
    try shared.withLock { table in
      if let fragment = table[id] { return (fragment.sequence, fragment.nodes) }
      let liveNodes = LiveCount()
      let (sequence, nodes) = try build(liveNodes)
      table[id] = SharedFragment(name: name, sequence: sequence, nodes: nodes, liveNodes: liveNodes)
      return (sequence, nodes)
    }
  }

  /// The `share` fragments whose hot part has nodes alive, by name, with how many.
  var liveNodes: [(fragment: String, nodes: Int)] {
    shared.withLock { table in
      table.values.map { ($0.name, $0.liveNodes.value) }.filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
    }
  }
}
