import Locking
import PipeEvaluator
import PipeSema
import Synchronization

/// One run of a pipeline: a Swift task, its nodes, its clock and its counts.
public final class Job: Sendable {
  public let id: Int
  public let text: String
  public let background: Bool
  public let context: JobContext
  /// The nodes of the pipeline, source first, the sink last.
  public let nodes: [Node]

  private struct Status {
    var state: JobState = .running
    var failure: PipelineError?
    var elapsedAtEnd: Duration?
    var task: Task<Void, Never>?
    var cancelRequested = false
    /// Set once the end is recorded and reported: waiters see the job ended only then.
    var ended = false
    var waiters: [Int: UnsafeContinuation<Void, Never>] = [:]
    var nextWaiter = 0
  }

  private let status = Locked(Status())

  /// Jobs whose task is still alive, process-wide.
  public static let liveTasks = Atomic<Int>(0)

  init(id: Int, text: String, background: Bool, context: JobContext, nodes: [Node]) {
    self.id = id
    self.text = text
    self.background = background
    self.context = context
    self.nodes = nodes
  }

  public var state: JobState { status.withLock { $0.state } }
  public var failure: PipelineError? { status.withLock { $0.failure } }
  /// Elements the sink received.
  public var output: Int { nodes.last { $0.isSink }?.input ?? 0 }

  /// Whether anyone has waited for it (`wait`), even if the waiting was stopped.
  public var waitedFor: Bool { status.withLock { $0.nextWaiter > 0 } }

  /// Run time so far, or until it ended.
  public var elapsed: Duration { status.withLock { $0.elapsedAtEnd } ?? context.elapsed }

  /// Cancels the job's task. On a virtual clock the cancellation runs on the clock's thread, the
  /// only thread that runs the job's code.
  public func cancel() {
    context.markCancelled()
    let task = status.withLock { status -> Task<Void, Never>? in
      status.cancelRequested = true
      return status.task
    }
    guard let task else { return }
    if let driver = context.clock.driver {
      driver.perform { task.cancel() }
    } else {
      task.cancel()
    }
  }

  /// Waits until the job has ended and its task with it (every task of it but those made to
  /// outlive it), or until the waiting task is cancelled.
  public func wait() async {
    await waitForEnd()
    if !Task.isCancelled { await context.tasks.waitForTasks(own: true) }
  }

  private func waitForEnd() async {
    let id = status.withLock { status -> Int in
      defer { status.nextWaiter += 1 }
      return status.nextWaiter
    }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let done = status.withLock { status -> Bool in
          if status.ended || Task.isCancelled { return true }
          status.waiters[id] = continuation
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      let waiter = status.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume()
    }
  }

  func attach(_ task: Task<Void, Never>) {
    let cancelled = status.withLock { status -> Bool in
      status.task = task
      return status.cancelRequested
    }
    if cancelled { cancel() }
  }

  /// Records how the job ended; `then` runs before anyone waiting is resumed.
  func end(_ state: JobState, failure: PipelineError? = nil, then: () -> Void) {
    status.withLock { status in
      status.state = state
      status.failure = failure
      status.elapsedAtEnd = context.elapsed
      status.task = nil
    }
    then()
    let waiters = status.withLock { status -> [UnsafeContinuation<Void, Never>] in
      status.ended = true
      defer { status.waiters.removeAll() }
      return status.waiters.keys.sorted().compactMap { status.waiters[$0] }
    }
    for waiter in waiters { waiter.resume() }
  }
}
