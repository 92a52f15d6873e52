import PipeSema

/// One lifecycle event of a node, for `trace`, `draw` and `diagram`.
public struct NodeEvent: Sendable {
  public typealias Kind = NodeEventKind

  public let time: Duration
  public let jobID: Int
  public let node: Node
  public let kind: Kind
}

/// Receives node events as they happen.
public protocol NodeObserver: AnyObject, Sendable {
  func record(_ event: NodeEvent)
  /// A line the job printed (`print`'s), as it went to the screen, at `time`.
  func printed(_ line: String, time: Duration, jobID: Int)
  /// A task of the job started, was cancelled or ended.
  func task(_ event: TaskEvent)
}

extension NodeObserver {
  public func printed(_ line: String, time: Duration, jobID: Int) {}
  public func task(_ event: TaskEvent) {}
}

/// Sees every job of a session (`pipesh --record`): told of each job as it starts, then of its
/// events beside any observer of the job's own (`trace`, `draw`).
public protocol SessionRecorder: NodeObserver {
  func started(job: Int, _ pipeline: CheckedPipeline, time: Duration)
}

/// Two observers of one job.
public final class ObserverPair: NodeObserver {
  let first: any NodeObserver
  let second: any NodeObserver

  public init(_ first: any NodeObserver, _ second: any NodeObserver) {
    self.first = first
    self.second = second
  }

  public func record(_ event: NodeEvent) {
    first.record(event)
    second.record(event)
  }

  public func printed(_ line: String, time: Duration, jobID: Int) {
    first.printed(line, time: time, jobID: jobID)
    second.printed(line, time: time, jobID: jobID)
  }

  public func task(_ event: TaskEvent) {
    first.task(event)
    second.task(event)
  }
}
