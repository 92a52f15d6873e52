import Locking
import PipeSema

/// One task that ran for a job: who made it, for which node, and what became of it. Times are on
/// the job's clock, from the session's start.
public final class TaskRecord: @unchecked Sendable {
  // @unchecked: `cancelledValue` and `endedValue` are touched only under `book`'s lock.
  /// Counts up from 1 in a session, in the order tasks are created.
  public let id: Int
  public let jobID: Int
  public let origin: TaskOrigin
  /// The task whose child it is (structured tasks only).
  public let parent: Int?
  /// The task that created it (nil for a job's own task).
  public let creator: Int?
  /// The node whose code created it: the most upstream node its creator was asking when it did,
  /// else the creator's own node; nil for a job's own task and the tasks it makes outside a node.
  public let node: Node?
  public let created: Duration
  /// What it lives for: its job, or something that outlives the job (which does not wait for it).
  public let lifetime: TaskLifetime
  /// The code of pipesh's own that made it; nil for swift-async-algorithms' (and a job's own).
  public let madeBy: PipeshTask?

  /// The job's tasks: its lock guards what becomes of this one (a lock a record would cost an
  /// allocation for every job, `stats` and memory per idle job count).
  unowned let book: JobTasks
  /// When and by whom it was cancelled; guarded by `book`'s lock.
  var cancelledValue: (time: Duration, by: TaskCanceller)?
  /// When it ended and whether it threw; guarded by `book`'s lock.
  var endedValue: (time: Duration, threw: Bool)?

  init(
    id: Int, book: JobTasks, origin: TaskOrigin, parent: Int?, creator: Int?, node: Node?, created: Duration,
    lifetime: TaskLifetime, madeBy: PipeshTask?
  ) {
    self.madeBy = madeBy
    self.id = id
    self.book = book
    self.jobID = book.jobID
    self.origin = origin
    self.parent = parent
    self.creator = creator
    self.node = node
    self.created = created
    self.lifetime = lifetime
  }

  /// When and by whom it was cancelled, if it was.
  public var cancellation: (time: Duration, by: TaskCanceller)? { book.guarded { cancelledValue } }
  /// When it ended, and whether its body threw; nil while it runs.
  public var end: (time: Duration, threw: Bool)? { book.guarded { endedValue } }
}

/// One moment of a task's life, for `trace`.
public struct TaskEvent: Sendable {
  public enum Kind: Sendable {
    case started
    case cancelled(TaskCanceller)
    case ended(threw: Bool)
  }

  public let time: Duration
  public let task: TaskRecord
  public let kind: Kind
}

extension TaskRecord {
  /// Its kind, as `tasks` and `trace` say it: the job's own, a child of its parent, or made by a
  /// task without being its child.
  public var kindText: String {
    let kind =
      switch origin {
      case .job: "the job's own"
      case .groupChild: "group child of \(parent.map(String.init) ?? "?")"
      case .child: "async let child of \(parent.map(String.init) ?? "?")"
      case .unstructured: "unstructured, by \(creator.map(String.init) ?? "?")"
      case .detached: "detached, by \(creator.map(String.init) ?? "?")"
      }
    // `spawn`'s tasks are said by their node and their lifetime.
    return kind + (madeBy.flatMap { $0 == .spawn ? nil : ", \($0.described)" } ?? "")
  }
}

/// A line of a trace: a node's event or a task's, in the order they happened.
public enum TracedEvent: Sendable {
  case node(NodeEvent)
  case task(TaskEvent)

  public var jobID: Int {
    switch self {
    case .node(let event): event.jobID
    case .task(let event): event.task.jobID
    }
  }

  public var time: Duration {
    switch self {
    case .node(let event): event.time
    case .task(let event): event.time
    }
  }
}
