import Locking
import PipeSema
import Synchronization

/// A job's state, as `jobs` shows it.
public enum JobState: String, Sendable {
  case running
  case finished
  case cancelled
  case failed
}

/// One run of a pipeline: a Swift task, its nodes, its clock and its counts.
public final class Job: Sendable {
  public let id: Int
  public let text: String
  public let background: Bool
  public let clockChoice: ClockChoice
  public let context: JobContext
  /// The nodes of the pipeline, source first (the sink is not a node).
  public let nodes: [Node]
  /// Elements the sink received.
  public let received = Atomic<Int>(0)

  private struct Status {
    var state: JobState = .running
    var failure: PipelineError?
    var elapsedAtEnd: Duration?
    var task: Task<Void, Never>?
    var waiters: [UnsafeContinuation<Void, Never>] = []
  }

  private let status = Locked(Status())

  /// Jobs whose task is still alive, process-wide.
  public static let liveTasks = Atomic<Int>(0)

  init(id: Int, text: String, background: Bool, clockChoice: ClockChoice, context: JobContext, nodes: [Node]) {
    self.id = id
    self.clockChoice = clockChoice
    self.text = text
    self.background = background
    self.context = context
    self.nodes = nodes
  }

  private let pauseOnEnd = Atomic<Bool>(false)

  /// Asks the job to pause its virtual clock as it ends: the shell waits for it and must act
  /// before time moves on.
  public func pausesClockOnEnd() { pauseOnEnd.store(true, ordering: .relaxed) }

  var shouldPauseClockOnEnd: Bool { pauseOnEnd.load(ordering: .relaxed) }

  public var state: JobState { status.withLock { $0.state } }
  public var failure: PipelineError? { status.withLock { $0.failure } }
  public var output: Int { received.load(ordering: .relaxed) }

  /// Run time so far, or until it ended.
  public var elapsed: Duration { status.withLock { $0.elapsedAtEnd } ?? context.elapsed }

  public func cancel() {
    context.markCancelled()
    let task = status.withLock { $0.task }
    task?.cancel()
  }

  /// Waits until the job has ended.
  public func wait() async {
    if state != .running { return }
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let done = status.withLock { status -> Bool in
        if status.state != .running { return true }
        status.waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  func attach(_ task: Task<Void, Never>) {
    let cancelled = status.withLock { status -> Bool in
      status.task = task
      return status.state != .running
    }
    if cancelled { task.cancel() }
  }

  /// Records how the job ended; `then` runs before anyone waiting is resumed.
  func end(_ state: JobState, failure: PipelineError? = nil, then: () -> Void) {
    let waiters = status.withLock { status -> [UnsafeContinuation<Void, Never>] in
      status.state = state
      status.failure = failure
      status.elapsedAtEnd = context.elapsed
      status.task = nil
      defer { status.waiters.removeAll() }
      return status.waiters
    }
    then()
    for waiter in waiters { waiter.resume() }
  }
}
