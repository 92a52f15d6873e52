import Locking

/// How the runtime made a task.
public enum TaskOrigin: Sendable, Equatable {
  /// A job's own task: it runs the sink, and through it every node the sink asks.
  case job
  /// A child task of a task group (`addTask`): cancelled with its parent, awaited by its group.
  case groupChild
  /// A child task of an `async let`.
  case child
  /// `Task { }`: nobody's child; only a call to its `cancel()` cancels it.
  case unstructured
  /// `Task.detached { }`.
  case detached

  /// Whether the runtime cancels it when its parent is cancelled.
  var isStructured: Bool {
    switch self {
    case .groupChild, .child: true
    case .job, .unstructured, .detached: false
    }
  }

  /// The runtime's task-create flags say which (`TaskCreateFlags`: bit 8 a child task, bit 10
  /// copies the creator's task locals, as `Task { }` does and `Task.detached` does not).
  init(flags: Int, inGroup: Bool) {
    if flags & (1 << 8) != 0 {
      self = inGroup ? .groupChild : .child
    } else {
      self = flags & (1 << 10) != 0 ? .unstructured : .detached
    }
  }
}

/// Code of pipesh's own that makes tasks (the rest is swift-async-algorithms' or the Swift
/// runtime's): views say so, so that no one takes them for what an operator of AA does.
public enum PipeshTask: Int32, Sendable {
  case spawn = 1
  case concurrentFlatMap
  case timeout
  case flatMapLatest
  /// Workarounds of swift-async-algorithms 1.1.4 bugs (`Sources/PipeRuntime/Workarounds`).
  case debounceWorkaround
  case shareWorkaround
  case upstreamStop
  case bufferWorkaround

  /// Whether it is pipesh's own bookkeeping: a workaround of an AA bug, or the stop of an
  /// operator's input; not spawn's, nor those of the operators pipesh implements (flatMap's,
  /// timeout's). `tasks` folds them; `explore` makes no choice among them.
  public var isBookkeeping: Bool {
    switch self {
    case .debounceWorkaround, .shareWorkaround, .upstreamStop, .bufferWorkaround: true
    case .spawn, .concurrentFlatMap, .timeout, .flatMapLatest: false
    }
  }

  /// As views say it.
  public var described: String {
    switch self {
    case .spawn: "spawn's"
    case .concurrentFlatMap: "pipesh's concurrent flatMap"
    case .timeout: "pipesh's timeout"
    case .flatMapLatest: "pipesh's flatMapLatest"
    case .debounceWorkaround: "pipesh's workaround of a debounce bug"
    case .shareWorkaround: "pipesh's workaround of a share bug"
    case .upstreamStop: "pipesh's stop of an operator's input"
    case .bufferWorkaround: "pipesh's workaround of a buffer bug"
    }
  }
}

/// What a task lives for.
public enum TaskLifetime: Sendable, Equatable {
  /// Its job: the job ends only once it has ended.
  case job
  /// Nothing: `spawn` made it to outlive its job, on purpose.
  case spawned
  /// The hot part of a `share` fragment, which the session keeps for later consumers.
  case sharedFragment(String)
}

/// Who cancelled a task.
public enum TaskCanceller: Sendable, Equatable {
  /// `cancel()` on it, called by task N.
  case task(Int)
  /// `cancel()` on it, called by a cancellation handler of task N while N was being cancelled
  /// (an operator stopping its own task when its consumer's is cancelled).
  indirect case handler(of: Int)
  /// `cancel()` on it, called outside every job's task: pipesh cancelling the job.
  case pipesh
  /// Its task group's `cancelAll()`, called as the canceller says (nil: by pipesh).
  indirect case group(by: TaskCanceller?)
  /// Its parent, task N, was cancelled: the runtime cancels a task's child tasks with it (nothing
  /// calls for it, so this is inferred from that rule).
  case parent(Int)
  /// It was cancelled when the runtime made it: its parent or its group was cancelled already.
  case atCreation
  /// It was cancelled when it ended, and no call for it was seen (the runtime did it itself).
  case unseen
}

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

extension TaskCanceller {
  /// Who cancelled, as `tasks` and `trace` say it; what pipesh inferred says so.
  public var described: String {
    switch self {
    case .task(let id): "by task \(id)"
    case .handler(let id): "by task \(id)'s cancellation"
    case .pipesh: "by pipesh (cancel)"
    case .group(let by?): "by its group's cancelAll, " + by.described
    case .group(nil): "by its group's cancelAll"
    case .parent(let id): "with its parent \(id) (inferred)"
    case .atCreation: "at its start (parent cancelled already)"
    case .unseen: "(found cancelled at its end)"
    }
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
