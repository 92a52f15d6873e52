import CPipeSupport
import Locking
import PipeSema
import Synchronization

/// The live record of one node of a job: state and counts, read by `jobs`, `inspect` and `stats`.
public final class Node: Sendable {
  public let id: Int
  public let text: String
  /// What it stands for: an operator with its facts, or a shared fragment's reading.
  public let kind: NodeKind

  /// What views need to know of its operator (what it waits on, whether it ends by itself); nil
  /// for a node that stands for a shared fragment.
  public var facts: OperatorFacts? {
    switch kind {
    case .operation(let facts): facts
    case .sharedFragment: nil
    }
  }

  /// What it waits on now, while it runs.
  public var waiting: NodeWait {
    if let since = waitingSince { return .consumerToTake(since: since) }
    if isAsked == false { return .consumerToAsk }
    if let held = shareLedger?.held, held > 0 { return .slowestReader(held: held) }
    return switch kind {
    case .operation(let facts): .operation(facts.waitsOn)
    case .sharedFragment: .inputs
    }
  }
  /// The channel, stream or subject a source reads or an `into` sends to.
  public let channelName: String?
  /// For a `buffer` that drops (`newest N`, `oldest N`): N, the elements it holds before it drops.
  public let dropsBeyond: Int?
  /// Since when (session time, in nanoseconds) an `into` has waited for a consumer to take its
  /// element; -1 while it does not wait.
  private let waitingSinceStorage = Atomic<Int64>(-1)

  /// Since when the node has waited for a consumer (`into`), nil while it does not.
  public var waitingSince: Duration? {
    let nanoseconds = waitingSinceStorage.load(ordering: .relaxed)
    return nanoseconds < 0 ? nil : .nanoseconds(nanoseconds)
  }

  func waits(since time: Duration?) {
    waitingSinceStorage.store(time?.wholeNanoseconds ?? -1, ordering: .relaxed)
  }

  /// When (session time, in nanoseconds) a sink last printed or sent a result; -1 before its first.
  private let lastResultStorage = Atomic<Int64>(-1)

  /// When a sink last printed or sent a result (the leak lint's "produced nothing"), nil before
  /// its first.
  public var lastResult: Duration? {
    let nanoseconds = lastResultStorage.load(ordering: .relaxed)
    return nanoseconds < 0 ? nil : .nanoseconds(nanoseconds)
  }

  func produced(at time: Duration) {
    lastResultStorage.store(time.wholeNanoseconds, ordering: .relaxed)
  }

  /// Whether its consumer is inside its `next()` now: 0 while nobody has asked it through its
  /// own box (a fused run's node, an idle one), 1 while asked, 2 between questions.
  private let askedStorage = Atomic<UInt8>(0)

  /// Whether its consumer is waiting for its next element now; nil where pipesh cannot see it (a
  /// fused run's node, a `share` several consumers ask).
  public var isAsked: Bool? {
    switch askedStorage.load(ordering: .relaxed) {
    case 1: true
    case 2: false
    default: nil
    }
  }

  func asked(_ now: Bool) {
    askedStorage.store(now ? 1 : 2, ordering: .relaxed)
  }

  /// The task that asks it (its consumer's), by address; 0 before its first ask. Noted once, at
  /// the first ask: a task an operator makes is put down to the node its creator was asking.
  private let askerStorage = Atomic<UInt>(0)

  var asker: UInt { askerStorage.load(ordering: .relaxed) }

  func noteAsker() {
    askerStorage.store(UInt(bitPattern: pipe_task_current()), ordering: .relaxed)
  }

  /// For a `share`, which several consumers ask at once: how many ask it now (its latest asker
  /// is `asker`).
  private let sharedAsks = Atomic<Int>(0)

  func sharedAsk(_ now: Bool) {
    if now {
      noteAsker()
      sharedAsks.add(1, ordering: .relaxed)
    } else {
      sharedAsks.subtract(1, ordering: .relaxed)
    }
  }

  /// Whether `task` is inside its `next()` now.
  func isAsked(by task: UInt) -> Bool {
    asker == task && (isAsked == true || sharedAsks.load(ordering: .relaxed) > 0)
  }

  /// For a `share`: what it holds for consumers that have not taken it yet.
  public let shareLedger: ShareLedger?
  /// For a node reading a `stream`: what the stream holds for its consumers.
  public let streamLedger: StreamLedger?
  /// For a `share`: its readers' boxes still alive (it stops when the last one goes).
  let readers = Atomic<Int>(0)
  /// For a job's reading of a `share` fragment (`t` of `let t = timer 1 | share`): the fragment's
  /// nodes, which every job that reads it shows in `inspect`, `top` and `lint`. They are `inputs`
  /// only in the job that built them, whose events they record (`trace`, `draw`).
  public let fragment: [Node]
  /// What the node is built on, where the stage's text does not say it (`AsyncThrowingChannel`).
  public let detail: String?
  /// The nodes of each input pipeline of a combinator or shared fragment.
  public let inputs: [[Node]]
  /// The pipelines `flatMap { … }` built so far, one per element.
  public let children: ChildPipelines?
  /// Elements it passed on (a sink: results it printed or sent).
  let counters = Atomic<Int>(0)
  /// Elements a sink received; other nodes' input is their upstream's output.
  let received = Atomic<Int>(0)
  /// Whether this is the sink of its pipeline.
  public let isSink: Bool
  /// State, how it ended and downstream: one lock for them.
  private let record = Locked(Record())

  private struct Record {
    var state = NodeState.idle
    /// The error of a failed node.
    var failure: String?
    /// The first cause of a cancelled node.
    var cause: CancelCause?
    var downstream: Node?
    /// `flatMapLatest` moved on to a newer element: why this body's nodes stop.
    var superseded = false
  }

  /// Nodes alive in the process: built and not yet let go of by their sequence and iterators.
  /// After a job ends it returns to what it was before (the `Node` records stay, for `inspect`).
  public static let live = Atomic<Int>(0)

  /// For a node of a pipeline a `flatMap` built: that node's id, and the node's place among all the
  /// nodes it built, in `draw`'s order (`Node.flattened`); -1 for any other node. A saved trace
  /// writes them, so `draw "F.trace"` orders its lanes as `draw P` does.
  private let builderStorage = Atomic<Int>(-1)
  private let rankStorage = Atomic<Int>(-1)

  /// The `flatMap` node that built this node's pipeline, and its place among that node's nodes.
  public var built: (by: Int, rank: Int)? {
    let builder = builderStorage.load(ordering: .relaxed)
    return builder < 0 ? nil : (builder, rankStorage.load(ordering: .relaxed))
  }

  /// Set by the `ChildPipelines` of the `flatMap` that built it.
  func setBuilt(by builder: Int, rank: Int) {
    rankStorage.store(rank, ordering: .relaxed)
    builderStorage.store(builder, ordering: .relaxed)
  }

  /// Whether this node is the last of a combinator's input, so its consumer is the combinator.
  private let feedsCombinatorStorage = Atomic<Bool>(false)
  /// For a combinator: when one input finishing ends the others.
  let inputFinishing: InputFinishing

  init(
    id: Int, text: String, kind: NodeKind, channelName: String? = nil, inputs: [[Node]],
    isSink: Bool = false, detail: String? = nil,
    children: ChildPipelines? = nil, inputFinishing: InputFinishing = .endsNothing, dropsBeyond: Int? = nil,
    shareLedger: ShareLedger? = nil, streamLedger: StreamLedger? = nil, fragment: [Node] = []
  ) {
    self.id = id
    self.shareLedger = shareLedger
    self.streamLedger = streamLedger
    self.fragment = fragment
    self.kind = kind
    self.channelName = channelName
    self.dropsBeyond = dropsBeyond
    self.children = children
    self.isSink = isSink
    self.text = text
    self.detail = detail
    self.inputs = inputs
    self.inputFinishing = inputFinishing
    for input in inputs {
      for (node, next) in zip(input, input.dropFirst()) { node.downstream = next }
      input.last?.downstream = self
      input.last?.feedsCombinatorStorage.store(true, ordering: .relaxed)
    }
    children?.owner = self
  }

  /// Every node of a tree, each node's inputs and the pipelines it built before it (the order
  /// `draw` lists them in).
  public static func flattened(_ nodes: [Node]) -> [Node] {
    nodes.flatMap { node in
      node.inputs.flatMap { flattened($0) } + (node.children?.all ?? []).flatMap { flattened($0) } + [node]
    }
  }

  /// Marks a pipeline `flatMapLatest` left for a newer element: its nodes stop for that reason.
  static func supersede(_ nodes: [Node]) {
    for node in flattened(nodes) { node.record.withLock { $0.superseded = true } }
  }

  /// The node that consumes this one's output: the next stage, the combinator or `flatMap` it
  /// feeds, or the sink (nil for a sink).
  public internal(set) var downstream: Node? {
    get { record.withLock { $0.downstream } }
    set { record.withLock { $0.downstream = newValue } }
  }

  /// Why a node whose consumer stopped asking was stopped, as far as is known when it stops (see
  /// `CancelCause`). A sink has no consumer: only its job's cancellation is a reason.
  func cancelCause(jobCancelled: Bool) -> CancelCause? {
    if jobCancelled { return .jobCancelled }
    if isSink { return nil }
    if shareLedger != nil { return .noReaders }
    if record.withLock({ $0.superseded }) { return .newerElement }
    if let combinator = downstream, feedsCombinatorStorage.load(ordering: .relaxed) {
      let siblings = combinator.inputs.compactMap(\.last).filter { $0 !== self }
      if siblings.contains(where: { $0.state == .failed }) { return .siblingFailed }
      if siblings.contains(where: { combinator.inputFinishing.ends(after: $0) }) { return .siblingFinished }
    }
    return .downstream
  }

  /// The words for a cause: `.downstream` says what became of the consumer, read now, since an
  /// operator may stop asking its input before it records its own end.
  private func describe(_ cause: CancelCause) -> String {
    switch cause {
    case .jobCancelled: return CancelReason.jobCancelled.rawValue
    case .newerElement: return CancelReason.newerElement.rawValue
    case .siblingFinished: return CancelReason.siblingFinished.rawValue
    case .siblingFailed: return CancelReason.siblingFailed.rawValue
    case .noReaders: return CancelReason.noReadersLeft.rawValue
    case .downstream:
      guard let downstream else { return CancelReason.downstreamFinished.rawValue }
      switch downstream.record.withLock({ ($0.state, $0.cause) }) {
      case (.finished, _): return CancelReason.downstreamFinished.rawValue
      case (.failed, _): return CancelReason.downstreamFailed.rawValue
      case (.cancelled, .jobCancelled?): return CancelReason.jobCancelled.rawValue
      case (.cancelled, _): return CancelReason.downstreamCancelled.rawValue
      // Still running: a sink stops asking once it has what it needs (`first`); any other node
      // only when it is being cancelled itself.
      case (.idle, _), (.running, _):
        return downstream.isSink ? CancelReason.downstreamFinished.rawValue : CancelReason.downstreamCancelled.rawValue
      }
    }
  }

  /// Elements the node passed on.
  public var output: Int { counters.load(ordering: .relaxed) }
  /// Elements a sink received.
  public var input: Int { received.load(ordering: .relaxed) }
  public var state: NodeState { record.withLock { $0.state } }
  /// The error of a failed node, or the first cause of a cancelled one.
  public var reason: String? {
    let (failure, cause) = record.withLock { ($0.failure, $0.cause) }
    return failure ?? cause.map(describe)
  }

  func started() -> Bool {
    record.withLock { record in
      guard record.state == .idle else { return false }
      record.state = .running
      return true
    }
  }

  /// Moves a running node to its end state; false when it had ended already.
  func ended(_ end: NodeState, failure: String? = nil, cause: CancelCause? = nil) -> Bool {
    record.withLock { record in
      guard record.state == .running || record.state == .idle else { return false }
      record.state = end
      record.failure = failure
      record.cause = cause
      return true
    }
  }

  /// Ends a node that was never asked for an element, when its job ends: cancelled, for the cause
  /// any other node of the job would have.
  func endIfNeverStarted(jobCancelled: Bool) {
    if state == .idle { _ = ended(.cancelled, cause: cancelCause(jobCancelled: jobCancelled)) }
  }
}

/// The first cause of a node's cancellation (SPEC section 12): the same with fusion on and off.
enum CancelCause: Sendable {
  /// Someone cancelled the job (`cancel`, Ctrl-C).
  case jobCancelled
  /// `flatMapLatest` moved on to a newer element.
  case newerElement
  /// Another input of the combinator it feeds finished, which ends the combinator (`zip`).
  case siblingFinished
  /// Another input of the combinator it feeds failed.
  case siblingFailed
  /// Its consumer stopped asking: the consumer finished, failed or was cancelled.
  case downstream
  /// A `share` whose last reader stopped asking (each of its readers is a job of its own).
  case noReaders
}

/// When one input of a combinator finishing ends the combinator, and so cancels the others.
enum InputFinishing: Sendable {
  /// Never: the others go on (`merge`, `chain`).
  case endsNothing
  /// Always (`zip`).
  case endsAll
  /// When it finished without an element (`combineLatest`).
  case endsAllWhenEmpty

  func ends(after input: Node) -> Bool {
    guard input.state == .finished else { return false }
    switch self {
    case .endsNothing: return false
    case .endsAll: return true
    case .endsAllWhenEmpty: return input.output == 0
    }
  }
}
