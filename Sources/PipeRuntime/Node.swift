import Locking
import PipeSema
import Synchronization

/// How a node ended, or that it has not.
public enum NodeState: String, Sendable {
  /// Built, not yet asked for an element.
  case idle
  /// Asked for elements and not ended.
  case running
  /// Its input ended, or it had all it needed (as `take 3` after three).
  case finished
  /// It threw an error.
  case failed
  /// Its task was cancelled, or its consumer stopped asking before the end.
  case cancelled
}

/// One lifecycle event of a node, for `trace`, `draw` and `diagram`.
public struct NodeEvent: Sendable {
  public enum Kind: Sendable {
    case start
    case element(Value)
    case finished
    case failed(String)
    case cancelled(String)
  }

  public let time: Duration
  public let jobID: Int
  public let node: Node
  public let kind: Kind
}

/// Receives node events as they happen.
public protocol NodeObserver: AnyObject, Sendable {
  func record(_ event: NodeEvent)
}

/// The live record of one node of a job: state and counts, read by `jobs`, `inspect` and `stats`.
public final class Node: Sendable {
  public let id: Int
  public let text: String
  /// The nodes of each input pipeline of a combinator, group or shared fragment.
  public let inputs: [[Node]]
  let counters = Atomic<Int>(0)
  private let stateStorage = Locked(NodeState.idle)
  private let waiters = Locked<[UnsafeContinuation<Void, Never>]>([])
  private let reasonStorage = Locked<String?>(nil)

  /// Node iterators alive in the process: what a running pipeline holds. After a job ends it
  /// returns to what it was before (the `Node` records stay, for `inspect`).
  public static let live = Atomic<Int>(0)

  /// The node that consumes this one's output (nil for the last one: the sink consumes it).
  private let downstreamStorage = Locked<Node?>(nil)
  /// Whether this node is the last of a combinator's input, so its consumer is the combinator.
  private let feedsCombinatorStorage = Atomic<Bool>(false)

  init(id: Int, text: String, inputs: [[Node]]) {
    self.id = id
    self.text = text
    self.inputs = inputs
    for input in inputs {
      for (node, next) in zip(input, input.dropFirst()) { node.downstream = next }
      input.last?.downstream = self
      input.last?.feedsCombinatorStorage.store(true, ordering: .relaxed)
    }
  }

  var downstream: Node? {
    get { downstreamStorage.withLock { $0 } }
    set { downstreamStorage.withLock { $0 = newValue } }
  }

  /// Why a node whose consumer stopped asking was stopped: what became of that consumer.
  func cancellationReason(jobCancelled: Bool) -> String {
    if jobCancelled { return "job cancelled" }
    guard let downstream else { return "downstream finished" }
    let feedsCombinator = feedsCombinatorStorage.load(ordering: .relaxed)
    switch downstream.state {
    case .finished: return feedsCombinator ? "sibling finished" : "downstream finished"
    case .failed: return "downstream failed"
    case .cancelled: return downstream.reason == "job cancelled" ? "job cancelled" : "downstream cancelled"
    case .idle, .running:
      return feedsCombinator ? "sibling finished" : "downstream stopped asking"
    }
  }

  /// Elements the node passed on.
  public var output: Int { counters.load(ordering: .relaxed) }
  public var state: NodeState { stateStorage.withLock { $0 } }
  /// Why it was cancelled or how it failed, where known.
  public var reason: String? { reasonStorage.withLock { $0 } }

  func started() -> Bool {
    stateStorage.withLock { state in
      guard state == .idle else { return false }
      state = .running
      return true
    }
  }

  /// Moves a running node to its end state; false when it had ended already.
  func ended(_ end: NodeState, reason: String? = nil) -> Bool {
    let changed = stateStorage.withLock { state -> Bool in
      guard state == .running || state == .idle else { return false }
      state = end
      return true
    }
    if changed, let reason { reasonStorage.withLock { $0 = reason } }
    if changed {
      for waiter in waiters.withLock({ waiters in
        defer { waiters.removeAll() }; return waiters
      }) { waiter.resume() }
    }
    return changed
  }

  /// Waits until a running node has ended; a node that never started is ended as cancelled.
  func waitUntilEnded() async {
    if state == .idle, ended(.cancelled, reason: "never started") { return }
    if state != .running { return }
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let done = waiters.withLock { waiters -> Bool in
        if state != .running { return true }
        waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }
}
