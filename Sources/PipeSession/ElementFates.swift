import PipeRuntime
import PipeSema

/// `why N`: what became of every element that went into a node of a watched job and did not come
/// out of it, from the job's recorded events (its nodes' asks, answers and elements, in the order
/// they happened) read the way each operator's `ElementFlow` says its elements go.
public struct ElementFates: Sendable {
  /// What became of one element a node let go of or still held.
  public enum Fate: Sendable, Equatable {
    /// Let go of by the operator's rule or timing; `by` is the element that came out instead, or
    /// the one it duplicated, where there is one.
    case lost(Loss, by: String?)
    /// Gathered with others into the element the node passed on (`chunks N`).
    case gathered(into: String)
    /// Combined with other inputs' elements into the element the node passed on (`zip`,
    /// `combineLatest`, `adjacentPairs`: the first it went into).
    case combined(into: String)
    /// Turned into a pipeline of its own, whose elements came out in its place (`flatMap`).
    case expanded
    /// Inside the node when its job was cancelled, or failed.
    case inFlight(cancelled: Bool)
    /// Held by the node when its consumer stopped asking (it finished before): never asked for.
    case neverAskedFor
  }

  /// An element a node let go of or held at its end.
  public struct Lost: Sendable {
    /// The element as `print` shows it.
    public let value: String
    /// When it went into the node.
    public let time: Duration
    /// When the node let go of it (or ended holding it).
    public let at: Duration
    public let fate: Fate
  }

  /// One node's account: `input = passed + lost.count`, or why it cannot be given.
  public struct Account: Sendable {
    public let node: NodeRef
    /// Elements that went in (from its input nodes); nil for a source.
    public let input: Int?
    /// Elements it passed on (a sink: that reached the end).
    public let output: Int
    /// Inputs that came out (as themselves or changed; gathered, combined or expanded elements
    /// count here not, but as lost `.gathered`, `.combined`, `.expanded`).
    public let passed: Int
    /// Elements it passed on that are none of its inputs': `interspersed`'s separators, the copies
    /// a `share` passes to its readers after the first.
    public let made: Int
    public let lost: [Lost]
    /// Why pipesh could not follow its elements (a bug of pipesh: please report it); nil when
    /// every element is accounted for.
    public let problem: String?
    /// How deep in the tree it stands (a combinator's inputs, a flatMap's pipelines, one deeper).
    public let depth: Int
    /// For a node that queues its input (`buffer`, `delay`): how many elements it held, from each
    /// instant it changed (`draw … demand: true`); nil for any other node, or one not followed.
    public let holdings: [Holding]?
  }

  /// How many elements a queueing node held from `time` on (until the next holding).
  public struct Holding: Sendable, Equatable {
    public let time: Duration
    public let held: Int

    public init(time: Duration, held: Int) {
      self.time = time
      self.held = held
    }
  }

  public let accounts: [Account]
  /// Pipelines a `flatMap` built that are no longer kept (their nodes are not followed).
  public let earlierPipelines: Int

  /// The account of a job's nodes from `history`, the job's recorded events.
  package init(nodes: [Node], history: DrawObserver) {
    var accounts: [Account] = []
    var earlier = 0
    func walk(_ chain: [Node], depth: Int) {
      var previous: [Node] = []
      for node in chain {
        let branches = node.inputs.isEmpty && !node.fragment.isEmpty ? [] : node.inputs
        for branch in branches { walk(branch, depth: depth + 1) }
        // A flatMap's pipelines before it, as `draw` lists them.
        if let children = node.children {
          earlier += children.earlier
          for pipeline in children.all { walk(pipeline, depth: depth + 1) }
        }
        let upstream = previous.isEmpty ? branches.compactMap(\.last) : previous
        accounts.append(Self.account(node, upstream: upstream, history: history, depth: depth))
        previous = [node]
      }
    }
    walk(nodes, depth: 0)
    self.accounts = accounts
    earlierPipelines = earlier
  }

  /// One node's elements, read against its flow.
  private static func account(_ node: Node, upstream: [Node], history: DrawObserver, depth: Int) -> Account {
    let own = history.sequenced(for: node)
    // Each element its inputs passed on, with the input it came from.
    let inputs = upstream.enumerated().flatMap { index, input in
      history.sequenced(for: input).filter { if case .element = $0.kind { true } else { false } }.map { ($0, index) }
    }
    let outputs = own.filter { if case .element = $0.kind { true } else { false } }.count
    let flow: ElementFlow =
      switch node.kind {
      case .operation(let facts): facts.flow
      case .sharedFragment: .source
      }
    var reader = FlowReader(node: node, flow: flow, inputCount: max(upstream.count, 1))
    if case .source = flow {
      return Account(
        node: NodeRef(node), input: nil, output: outputs, passed: outputs, made: 0, lost: [], problem: nil,
        depth: depth,
        holdings: nil)
    }
    // Every event of the node and every element its input passed on, in the order they happened.
    let events = (own.map { ($0, nil as Int?) } + inputs.map { ($0.0, $0.1 as Int?) }).sorted {
      $0.0.order < $1.0.order
    }
    for (event, input) in events {
      guard reader.problem == nil else { break }
      if let input { reader.input(event, from: input) } else { reader.own(event) }
      reader.noteHolding(at: event.time)
    }
    if reader.problem == nil { reader.end(node) }
    if reader.problem == nil, !node.isSink, inputs.count != reader.passed + reader.lost.count {
      reader.fail("\(inputs.count) went in, \(reader.passed) came out and \(reader.lost.count) were let go of")
    }
    let problem = reader.problem
    let passed = node.isSink ? inputs.count : reader.passed
    return Account(
      node: NodeRef(node), input: inputs.count, output: node.isSink ? inputs.count : outputs, passed: passed,
      made: node.isSink ? 0 : reader.made, lost: problem == nil ? reader.lost : [], problem: problem, depth: depth,
      holdings: problem == nil && reader.queues ? reader.holdings : nil)
  }
}

/// Why `why N` cannot say what became of job N's elements.
public enum WhyRefusal: Error, Equatable {
  /// There is no job N.
  case noJob
  /// It has not ended.
  case running
  /// Nobody watched it, so nothing recorded its elements.
  case notWatched
  /// Its events were let go of: only the last `Engine.keptHistories` watched jobs keep theirs.
  case forgotten
  /// It made more events than a history keeps: what became of the later ones is unknown.
  case overflowed
}

extension Engine {
  /// How many watched jobs keep their events for `why`.
  public static let keptHistories = 20

  /// Keeps a watched job's events for `why`, letting go of the oldest job's past `keptHistories`.
  func keep(_ history: DrawObserver, of job: Int) {
    histories.withLock { histories in
      histories.byJob[job] = history
      histories.order.append(job)
      histories.watched.insert(job)
      if histories.order.count > Self.keptHistories {
        histories.byJob[histories.order.removeFirst()] = nil
      }
    }
  }

  /// Whether job `id` was watched and its events are still kept.
  func history(of id: Int) -> DrawObserver? { histories.withLock { $0.byJob[id] } }

  /// What became of job `id`'s elements, or why that cannot be said.
  public func fates(ofJob id: Int) -> Result<(JobSnapshot, ElementFates), WhyRefusal> {
    guard let job = jobs.job(id) else { return .failure(.noJob) }
    guard job.state != .running else { return .failure(.running) }
    guard let history = history(of: id) else {
      return .failure(histories.withLock { $0.watched.contains(id) } ? .forgotten : .notWatched)
    }
    guard !history.overflowed else { return .failure(.overflowed) }
    return .success((JobSnapshot(job), ElementFates(nodes: job.nodes, history: history)))
  }
}
