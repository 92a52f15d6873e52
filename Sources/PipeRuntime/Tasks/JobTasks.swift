import Locking
import PipeSema
import Synchronization
import VirtualTime

/// The tasks that ran for one job, as the runtime made, cancelled and ended them (`TaskBook`):
/// its own task, those its operators started (swift-async-algorithms' and pipesh's), and theirs.
public final class JobTasks: Sendable {
  public let jobID: Int
  private let clock: PipeClock
  private let observer: (any NodeObserver)?
  /// The session's task ids.
  private let ids: TaskIDs

  private struct State {
    /// The job's nodes, to tell which one a new task is for.
    var nodes: [Node] = []
    /// Every task still running, and the latest ended ones (`kept` in all).
    var records: [TaskRecord] = []
    /// Ended tasks no longer kept.
    var earlier = 0
    var live = 0
    /// Live tasks the job's end waits for: all but its own and those made to outlive it.
    var operators = 0
    /// Whether the job's own task runs.
    var ownRuns = false
    /// Who waits, and for which: the operators' tasks (the job's task, before it records its
    /// end), or those and the job's own (whoever waits for the job).
    var waiters: [(continuation: UnsafeContinuation<Void, Never>, forOwn: Bool)] = []

    /// The waiters whose wait is over, taken out.
    mutating func done() -> [UnsafeContinuation<Void, Never>] {
      guard operators == 0 else { return [] }
      let over = waiters.filter { !$0.forOwn || !ownRuns }
      waiters.removeAll { !$0.forOwn || !ownRuns }
      return over.map(\.continuation)
    }
  }

  private let state = Locked(State())

  /// How many records are kept: a `flatMap` running a task per element must not hold them all.
  static let kept = 200

  init(jobID: Int, clock: PipeClock, observer: (any NodeObserver)?, ids: TaskIDs) {
    self.jobID = jobID
    self.clock = clock
    self.observer = observer
    self.ids = ids
  }

  /// Now on the job's clock, from the session's start.
  var now: Duration { clock.now.offset }

  func setNodes(_ nodes: [Node]) {
    state.withLock { $0.nodes = nodes }
  }

  var nodes: [Node] { state.withLock { $0.nodes } }

  /// The `share` fragment whose hot part `node` is in (which the session keeps), if it is in one.
  func sharedFragment(of node: Node) -> String? {
    for reading in Node.flattened(nodes) where reading.kind == .sharedFragment {
      if Node.flattened(reading.fragment).contains(where: { $0 === node }) { return reading.text }
    }
    return nil
  }

  /// The tasks kept, in the order they were created.
  public var records: [TaskRecord] { state.withLock { $0.records } }
  /// Tasks that ended and are no longer kept.
  public var earlier: Int { state.withLock { $0.earlier } }
  /// Tasks running now.
  public var live: Int { state.withLock { $0.live } }
  /// Tasks running now that outlive the job (`spawn`'s, a share fragment's).
  public var outliving: [TaskRecord] {
    state.withLock { $0.records.filter { $0.lifetime != .job && $0.endedValue == nil } }
  }

  /// Runs `body` under the lock that guards what becomes of its records.
  func guarded<T>(_ body: () -> T) -> T {
    state.withLock { _ in body() }
  }

  func nextID() -> Int { ids.next() }

  func added(_ record: TaskRecord) {
    state.withLock { state in
      state.records.append(record)
      state.live += 1
      if record.origin == .job {
        state.ownRuns = true
      } else if record.lifetime == .job {
        state.operators += 1
      }
    }
    TaskBook.live.add(1, ordering: .relaxed)
    observer?.task(TaskEvent(time: record.created, task: record, kind: .started))
  }

  func cancelled(_ record: TaskRecord, at time: Duration, by canceller: TaskCanceller) {
    let first = state.withLock { _ -> Bool in
      guard record.cancelledValue == nil else { return false }
      record.cancelledValue = (time, canceller)
      return true
    }
    guard first else { return }
    observer?.task(TaskEvent(time: time, task: record, kind: .cancelled(canceller)))
  }

  func ended(_ record: TaskRecord, threw: Bool, at time: Duration) {
    let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      record.endedValue = (time, threw)
      state.live -= 1
      if state.records.count > Self.kept, let index = state.records.firstIndex(where: { $0.endedValue != nil }) {
        state.records.remove(at: index)
        state.earlier += 1
      }
      if record.origin == .job {
        state.ownRuns = false
      } else if record.lifetime == .job {
        state.operators -= 1
      }
      return state.done()
    }
    TaskBook.live.subtract(1, ordering: .relaxed)
    observer?.task(TaskEvent(time: time, task: record, kind: .ended(threw: threw)))
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once every task the operators started for the job has ended (not those made to
  /// outlive it), and, with `own`, the job's own task too.
  func waitForTasks(own: Bool) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let over = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
        state.waiters.append((continuation, own))
        return state.done()
      }
      for waiter in over { waiter.resume() }
    }
  }
}

/// A session's task ids: 1, 2, 3… in the order its jobs' tasks are created.
public final class TaskIDs: Sendable {
  private let last = Atomic<Int>(0)

  public init() {}

  func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
