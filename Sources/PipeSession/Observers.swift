import Locking
import PipeRuntime
import PipeSema
import PipeSyntax
import TraceFormat

/// `trace P to: "F.trace"`: prints the trace as `trace` does and keeps each event as a line of the
/// file (`TraceFile`), the first `maximumEvents` of them.
public final class TraceRecorder: SessionRecorder {
  public static let maximumEvents = 1_000_000
  /// Prints the events as they happen (`trace`); nil when they are only saved (`--record`).
  public let printer: (any TraceWatcher)?
  /// What tells `printer` each event, made once for them all.
  private let told: WatcherObserver?
  /// The lines saved (header first), how many bytes the file of them takes, and the events left out.
  private let lines = Locked<(saved: [String], bytes: Int, dropped: Int)>(([], 0, 0))

  public init(printer: (any TraceWatcher)?, header: String) {
    self.printer = printer
    told = printer.map(WatcherObserver.init)
    lines.withLock { lines in
      lines.saved.append(header)
      lines.bytes = header.utf8.count + 1
    }
  }

  public func record(_ event: NodeEvent) {
    told?.record(event)
    save(TraceFile.line(event))
  }

  /// A job of a recorded session: `replay` shows its events with its own labels' width.
  public func started(job: Int, _ pipeline: CheckedPipeline, time: Duration) {
    save(
      TraceFile.job(
        job, pipeline: pipeline.text, labels: Inspector.labels(pipeline), implicitSink: pipeline.hasImplicitSink,
        time: time))
  }

  public func printed(_ line: String, time: Duration, jobID: Int) {
    save(TraceFile.output(line, time: time, jobID: jobID))
  }

  public func task(_ event: TaskEvent) {
    // Where the task views cannot be trusted (`TaskViews`), a trace names no task.
    guard TaskViews.available else { return }
    told?.task(event)
    save(TraceFile.task(event))
  }

  /// Keeps `line` while the file stays within the events and bytes `replay` reads; after that,
  /// every event is left out (counted), so the file is a whole beginning of the run.
  private func save(_ line: String) {
    let size = line.utf8.count + 1
    lines.withLock { lines in
      if lines.dropped == 0, lines.saved.count <= Self.maximumEvents, lines.bytes + size <= TraceFile.maximumBytes {
        lines.saved.append(line)
        lines.bytes += size
      } else {
        lines.dropped += 1
      }
    }
  }

  /// The file's text, how many events it keeps, and how many did not fit.
  public var saved: (text: String, kept: Int, dropped: Int) {
    lines.withLock { ($0.saved.joined(separator: "\n") + "\n", $0.saved.count - 1, $0.dropped) }
  }
}

/// `draw`: keeps every node's events, to draw one marble line per node when the job ends. Past
/// `maximumEvents` it calls `onLimit` once (draw then stops the pipeline).
public final class DrawObserver: NodeObserver {
  /// How many events a run may make before it is stopped: 100,000, or what `limitEvents` set for
  /// the whole process (`pipesh --page`, whose pictures must come within a page's patience).
  public static var maximumEvents: Int { limit.withLock { $0 } }
  private static let limit = Locked(100_000)
  private let maximum = DrawObserver.maximumEvents

  /// Sets `maximumEvents` for every run that starts after it (set once, before anything runs).
  public static func limitEvents(to count: Int) { limit.withLock { $0 = count } }

  public init() {}
  private let events = Locked<(byNode: [ObjectIdentifier: Recorded], count: Int)>(([:], 0))
  let onLimit = Locked<(@Sendable () -> Void)?>(nil)

  /// A node's events. The node is kept with them: a `flatMap` lets go of the nodes of its older
  /// pipelines, and a node made later at the same address must not take their events.
  fileprivate struct Recorded {
    public let node: Node
    /// Its events as lanes draw them: elements and its start and end.
    public var events: [(Duration, NodeEventKind)] = []
    /// Every event of it, demand too, with its place among all the job's events.
    public var all: [SequencedEvent] = []
  }

  /// An event with its place among all the events of the run (`why` orders them by it).
  public struct SequencedEvent: Sendable {
    public let order: Int
    public let time: Duration
    public let kind: NodeEventKind
  }

  public func record(_ event: NodeEvent) {
    let full = events.withLock { events -> Bool in
      events.count += 1
      guard events.count <= maximum else { return events.count == maximum + 1 }
      let order = events.count
      events.byNode[ObjectIdentifier(event.node), default: Recorded(node: event.node)].add(event, order: order)
      return false
    }
    if full { onLimit.withLock { $0 }?() }
  }

  /// Every node it saw an event of, in the order of each one's first event.
  package var nodes: [Node] {
    events.withLock { events in
      events.byNode.values.sorted { ($0.all.first?.order ?? 0) < ($1.all.first?.order ?? 0) }.map(\.node)
    }
  }

  /// Every event of a node, demand too, each with its place among all the run's events.
  package func sequenced(for node: Node) -> [SequencedEvent] { sequenced(for: ObjectIdentifier(node)) }

  /// Every event of the node of `identity` (`NodeSnapshot.identity`), demand too.
  public func sequenced(for identity: ObjectIdentifier) -> [SequencedEvent] {
    events.withLock { $0.byNode[identity]?.all ?? [] }
  }

  /// A node's demand and its answers, in order, for `draw … demand: true`.
  public func demand(for node: NodeSnapshot) -> [(Duration, TraceFile.EventKind)] {
    sequenced(for: node.identity).map { ($0.time, TraceFile.EventKind($0.kind)) }
  }

  public var overflowed: Bool { events.withLock { $0.count > maximum } }

  /// The tick to draw with: `tick`, or the first of its fractions (½, ¼, ⅕, ⅒ … 1/100) at which
  /// no column holds events of different instants (`timer 0.3` in columns of 1s would show five
  /// events as one group). The first column holds the start (time 0) too: an element then and one
  /// a tick later would share it (`from 1 2 3 | work 1`), so it counts.
  public func finestTick(_ tick: Duration) -> Duration {
    let times = events.withLock { events in
      events.byNode.values.map { recorded in recorded.events.map { time, kind in (time, TraceFile.EventKind(kind)) } }
    }
    return Self.finestTick(tick, lanes: times)
  }

  /// The finest tick for lanes of events (a live run's or a saved trace's).
  public static func finestTick(_ tick: Duration, lanes: [[(Duration, TraceFile.EventKind)]]) -> Duration {
    let times = lanes.map { lane in
      lane.compactMap { time, kind -> Duration? in
        switch kind {
        case .start, .asked, .sending: return nil
        // An event at the start is drawn in the first tick's column too: it counts.
        case .element, .finished, .failed, .cancelled: return time
        }
      }
    }
    for divisor in [1, 2, 4, 5, 10, 20, 50, 100] {
      let candidate = tick / divisor
      let recorder = DiagramRecorder(tick: candidate)
      let apart = times.allSatisfy { times in
        var seen: [Int: Duration] = [:]
        for time in times {
          let column = recorder.column(of: time)
          if let earlier = seen[column], earlier != time { return false }
          seen[column] = time
        }
        return true
      }
      if apart { return candidate }
    }
    return tick / 100
  }

  /// A node's events, as they came.
  package func events(for node: Node) -> [(time: Duration, kind: NodeEventKind)] {
    events(for: ObjectIdentifier(node))
  }

  /// The lifecycle events of the node of `identity` (`NodeSnapshot.identity`).
  public func events(for identity: ObjectIdentifier) -> [(time: Duration, kind: NodeEventKind)] {
    events.withLock { $0.byNode[identity]?.events.map { (time: $0.0, kind: $0.1) } ?? [] }
  }

  public func line(for node: NodeSnapshot, tick: Duration) -> String {
    let recorded = events.withLock { $0.byNode[node.identity]?.events ?? [] }
    return Self.line(recorded.map { time, kind in (time, TraceFile.EventKind(kind)) }, tick: tick)
  }

  /// A lane of marbles for a node's events (a live run's or a saved trace's).
  public static func line(_ events: [(Duration, TraceFile.EventKind)], tick: Duration) -> String {
    var recorder = DiagramRecorder(tick: tick)
    for (time, kind) in events {
      switch kind {
      case .start: continue
      case .element(let value): recorder.add(time, .value(value))
      case .finished: recorder.add(time, .finish)
      case .failed: recorder.add(time, .fail)
      case .cancelled: recorder.add(time, .cancel)
      case .asked, .sending: continue
      }
    }
    return recorder.line
  }
}

extension DrawObserver.Recorded {
  fileprivate mutating func add(_ event: NodeEvent, order: Int) {
    all.append(DrawObserver.SequencedEvent(order: order, time: event.time, kind: event.kind))
    switch event.kind {
    case .asked, .sending: break
    case .start, .element, .finished, .failed, .cancelled: events.append((event.time, event.kind))
    }
  }
}

/// Draws a job's node tree for `inspect`, and lists node labels.
public enum Inspector {
  /// The stage texts of a pipeline and its inputs, for aligning trace lines.
  public static func labels(_ pipeline: CheckedPipeline) -> [String] {
    pipeline.stages.flatMap { stage in stage.inputs.flatMap { labels($0) } + [stage.text] }
  }

  /// Every node's counts, each read once, downstream first. Counts only grow, and a node's are
  /// published after its upstream's (a fused run publishes upstream first too), so a node read
  /// before its upstream is never seen with more than its upstream passed on: the table shows one
  /// possible moment of a running job.
  static func counts(_ nodes: [Node]) -> [ObjectIdentifier: (input: Int, output: Int)] {
    var counts: [ObjectIdentifier: (input: Int, output: Int)] = [:]
    func read(_ nodes: [Node]) {
      for node in nodes.reversed() {
        counts[ObjectIdentifier(node)] = (node.input, node.output)
        for branch in (node.treeInputs + (node.children?.all ?? [])).reversed() { read(branch) }
      }
    }
    read(nodes)
    return counts
  }

  /// A row of a job's node tree: a node, with the tree's lines before its text and its counts,
  /// or the note of a flatMap's earlier pipelines.
  public enum TreeRow: Sendable {
    case node(NodeSnapshot, lead: String, input: Int?, output: Int)
    case earlier(String)
  }

  /// The job's nodes as `inspect` draws them: each chain's nodes in order, a node's inputs and the
  /// pipelines a flatMap built under it, `prefix` before every row (`branch` before a chain's first).
  public static func tree(_ nodes: [NodeSnapshot], prefix: String = "", branch: String = "") -> [TreeRow] {
    var rows: [TreeRow] = []
    func add(_ nodes: [NodeSnapshot], prefix: String, branch: String) {
      var previousOut: Int?
      for (index, node) in nodes.enumerated() {
        let inputs = node.inputs.compactMap { $0.last?.output }
        // A job reading a share fragment took what it shows as its output; the share's output is
        // what all its readers took.
        let input =
          node.isSink
          ? node.input
          : !node.fragment.isEmpty ? node.output : previousOut ?? (inputs.isEmpty ? nil : inputs.reduce(0, +))
        rows.append(.node(node, lead: index == 0 ? branch : prefix, input: input, output: node.output))
        // Its inputs, then the pipelines a flatMap built, one per element.
        let branches = node.treeInputs + node.children
        if node.earlierChildren > 0 {
          rows.append(.earlier(prefix + "├─ … \(node.earlierChildren) earlier pipelines"))
        }
        for (index, branch) in branches.enumerated() {
          let last = index == branches.count - 1
          add(branch, prefix: prefix + (last ? "   " : "│  "), branch: prefix + (last ? "└─ " : "├─ "))
        }
        previousOut = node.output
      }
    }
    add(nodes, prefix: prefix, branch: branch)
    return rows
  }
}

extension Node {
  /// The node's inputs as `inspect`, `top` and `lint` show them: a job's reading of a share
  /// fragment shows the fragment's nodes in every job that reads it.
  package var treeInputs: [[Node]] {
    inputs.isEmpty && !fragment.isEmpty ? [fragment] : inputs
  }
}
