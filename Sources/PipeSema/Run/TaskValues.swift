/// What a run reports of its tasks, as values.

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
  public var isStructured: Bool {
    switch self {
    case .groupChild, .child: true
    case .job, .unstructured, .detached: false
    }
  }

  /// The runtime's task-create flags say which (`TaskCreateFlags`: bit 8 a child task, bit 10
  /// copies the creator's task locals, as `Task { }` does and `Task.detached` does not).
  public init(flags: Int, inGroup: Bool) {
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
