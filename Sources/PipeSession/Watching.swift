import PipeRuntime
import PipeSema
import TraceFormat

/// What a view is told of a run as it happens: each node's and each task's event as values, as the
/// trace file writes them, never the runtime's records. `trace` prints them, `step` shows them.
public protocol TraceWatcher: AnyObject, Sendable {
  /// A node's event: its job, its label (the node's text), what happened.
  func node(time: Duration, job: Int, label: String, _ kind: TraceFile.EventKind)
  /// A task's event: its job, its number, the label of the node whose code made it ("" for none).
  func task(time: Duration, job: Int, task: Int, label: String, _ kind: TraceFile.TaskEventKind)
}

/// What watches a job as it runs: a printer of its lines (`trace`), a keeper of its events for a
/// chart (`DrawObserver`), a saved trace (`TraceRecorder`).
public struct RunWatchers: Sendable {
  public var printer: (any TraceWatcher)?
  public var drawing: DrawObserver?
  public var recorder: TraceRecorder?

  public init(printer: (any TraceWatcher)? = nil, drawing: DrawObserver? = nil, recorder: TraceRecorder? = nil) {
    self.printer = printer
    self.drawing = drawing
    self.recorder = recorder
  }

  /// The runtime's observer that tells them all, in that order.
  var observer: (any NodeObserver)? {
    var all: [any NodeObserver] = []
    if let printer { all.append(WatcherObserver(printer)) }
    if let recorder { all.append(recorder) }
    if let drawing { all.append(drawing) }
    guard let first = all.first else { return nil }
    return all.dropFirst().reduce(first) { ObserverPair($0, $1) }
  }
}

/// Tells a `TraceWatcher` what the runtime tells an observer.
final class WatcherObserver: NodeObserver {
  let watcher: any TraceWatcher

  init(_ watcher: any TraceWatcher) {
    self.watcher = watcher
  }

  func record(_ event: NodeEvent) {
    watcher.node(time: event.time, job: event.jobID, label: event.node.text, TraceFile.EventKind(event.kind))
  }

  func task(_ event: TaskEvent) {
    watcher.task(
      time: event.time, job: event.task.jobID, task: event.task.id, label: event.task.node?.text ?? "",
      TraceFile.TaskEventKind(event))
  }

  /// A traced event, told.
  func tell(_ event: TracedEvent) {
    switch event {
    case .node(let event): record(event)
    case .task(let event): task(event)
    }
  }
}

extension Engine {
  /// Runs `pipeline` as a statement does, watched by `watchers`. Returns the job, ended unless
  /// `background`.
  @discardableResult
  public func run(_ pipeline: CheckedPipeline, background: Bool, watchers: RunWatchers) async -> JobSnapshot {
    JobSnapshot(await run(pipeline, background: background, observer: watchers.observer))
  }
}
