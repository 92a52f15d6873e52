import PipeRuntime
import PipeSema
import PipeSyntax
import TraceFormat

/// A run's events in the saved trace's terms: what the runtime records, as `TraceFormat` writes it.
extension TraceFile {
  /// The limits of a saved trace, as the messages say them.
  public static let limits = "a trace keeps at most \(TraceRecorder.maximumEvents) events and \(maximumBytes >> 20) MiB"

  public static func line(_ event: NodeEvent) -> String {
    node(
      time: event.time, job: event.jobID, node: event.node.id, label: event.node.text,
      built: event.node.built.map { Built(parent: $0.by, rank: $0.rank) }, EventKind(event.kind))
  }

  /// A task's event: `"event":"task"`, its number, the node whose code made it, and `started`
  /// with its kind, `cancelled` with by what, or `ended` with whether it threw.
  public static func task(_ event: TaskEvent) -> String {
    task(
      time: event.time, job: event.task.jobID, task: event.task.id, label: event.task.node?.text ?? "",
      TaskEventKind(event))
  }
}

extension TraceFile.EventKind {
  /// The event as a run's node event, for a picture: an element's value is its printed text.
  public var nodeEventKind: NodeEventKind {
    switch self {
    case .start: .start
    case .element(let text): .element(.string(text))
    case .finished: .finished
    case .failed(let reason): .failed(reason)
    case .cancelled(let reason): .cancelled(reason)
    case .asked: .asked
    case .sending(let channel): .sending(to: channel)
    }
  }

  public init(_ kind: NodeEventKind) {
    switch kind {
    case .start: self = .start
    case .element(let value): self = .element(value.printed)
    case .finished: self = .finished
    case .failed(let reason): self = .failed(reason)
    case .cancelled(let reason): self = .cancelled(reason)
    case .asked: self = .asked
    case .sending(let channel): self = .sending(to: channel)
    }
  }

}

extension TraceFile.TaskEventKind {
  public init(_ event: TaskEvent) {
    switch event.kind {
    case .started: self = .started(kind: event.task.kindText)
    case .cancelled(let canceller): self = .cancelled(by: canceller.described)
    case .ended(let threw): self = .ended(threw: threw)
    }
  }

}
