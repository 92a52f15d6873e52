import PipeSyntax

/// A saved trace (`trace P to: "F.trace"`): JSON lines, for `replay` and for other tools. The
/// first line says what was traced:
///
///     {"pipesh":"trace","version":1,"pipeline":"from 1 2","clock":"virtual","labels":["from 1 2","print"],"implicitSink":true}
///
/// (`implicitSink` when the pipeline ends in the `print` pipesh added, none being written: its
/// node is the last label's, and `draw "F.trace"` leaves its lane out as `draw P` does; absent,
/// as in files written before, it is false.)
///
/// and each line after it is one event of one node, at its time in nanoseconds since the session
/// started (`ns`), with `value` (the element as `print` shows it) or `reason` where it has one,
/// or a line the job printed (`"event":"output"`, no node), or, in a recording of a whole script
/// (`pipesh --record`), a job that started (`"event":"job"`), or a task of the job that started,
/// was cancelled or ended (`"event":"task"`, with the node whose code made it as its `label`):
///
///     {"ns":0,"job":1,"node":1,"label":"from 1 2","event":"element","value":"1"}
///     {"ns":0,"job":1,"event":"output","text":"1"}
///     {"ns":0,"job":2,"event":"job","pipeline":"timer 1","labels":["timer 1","print"],"implicitSink":true}
///     {"ns":0,"job":1,"event":"task","task":2,"label":"merge(timer 1, timer 2)","what":"started","kind":"unstructured, by 1"}
///     {"ns":0,"job":1,"event":"task","task":3,"label":"merge(timer 1, timer 2)","what":"cancelled","by":"with its parent 2 (inferred)"}
///     {"ns":0,"job":1,"event":"task","task":3,"label":"merge(timer 1, timer 2)","what":"ended","threw":false}
///
/// While a watcher records demand (every trace does), a node's consumer asking it for an element is
/// an event too (`"event":"asked"`, answered by the node's next event), and an `into` that begins
/// to send and waits for a consumer to take the element (`"event":"sending","channel":"c"`, until
/// its next event); `trace` and `replay` do not print them, `draw "F.trace" demand: true` draws
/// them, and files written before carry none:
///
///     {"ns":0,"job":1,"node":2,"label":"take 1","event":"asked"}
///
/// A node of a pipeline a `flatMap` built also says which node built it (`parent`) and its place
/// among the nodes that node built (`rank`), so `draw "F.trace"` orders lanes as `draw P` does;
/// files written before carry neither and are still read.
public enum TraceFile {
  public static let version = 1
  /// The largest trace file: the writer stops saving events before the file would pass it, and the
  /// reader reads files up to it (a 23 MB trace of 70,000 elements was refused at 16 MiB, the
  /// limit of a script). An event's value can be any length, so 1,000,000 events alone bound no size.
  public static let maximumBytes = 256 << 20

  /// What a node did, as saved: an element as `print` shows it.
  public enum EventKind: Equatable, Sendable {
    case start
    case element(String)
    case finished
    case failed(String)
    case cancelled(String)
    /// Its consumer asked for an element (`next()`); the node's next event answers.
    case asked
    /// An `into` began to send to a channel and waits for a consumer to take the element.
    case sending(to: String)

    /// Whether it is demand (an ask, a send waiting), which `trace` and `replay` do not print and
    /// `draw … demand: true` draws under the lanes.
    public var isDemand: Bool {
      switch self {
      case .asked, .sending: true
      case .start, .element, .finished, .failed, .cancelled: false
      }
    }

    /// As `trace` prints it.
    public var described: String {
      switch self {
      case .start: "start"
      case .element(let value): "→ \(value.showingEveryControlCharacter)"
      case .finished: "finished"
      case .failed(let reason): "failed: \(reason.showingEveryControlCharacter)"
      case .cancelled(let reason): reason.isEmpty ? "cancelled" : "cancelled (\(reason.showingEveryControlCharacter))"
      case .asked: "asked"
      case .sending(let channel): "sending to \(channel)"
      }
    }
  }

  /// A node's event, or (`output`) a line the job printed.
  public struct Event: Equatable, Sendable {
    public let time: Duration
    public let job: Int
    public let what: What
    /// For a probe's ask (`"task":N`, PipeshProbe's traces): which task asked, numbered from 1 in
    /// the order the recorder first saw them; nil elsewhere.
    public var task: Int? = nil

    public enum What: Equatable, Sendable {
      case node(id: Int, label: String, EventKind, built: Built? = nil)
      case output(String)
      /// A job started (in a recording of a whole session), its lines aligned to `labels`;
      /// `implicitSink` when it ends in the `print` pipesh added (the last label's node).
      case job(pipeline: String, labels: [String], implicitSink: Bool = false)
      /// A task of the job started, was cancelled or ended; `label` is the node whose code made it
      /// (empty for the job's own task).
      case task(id: Int, label: String, TaskEventKind)
    }
  }

  /// What happened to a task, as saved: its kind and who cancelled it as `tasks` says them.
  public enum TaskEventKind: Equatable, Sendable {
    case started(kind: String)
    case cancelled(by: String)
    case ended(threw: Bool)

    /// As `trace` prints it, after the task's number.
    public var described: String {
      switch self {
      case .started(let kind): "started (\(kind))"
      case .cancelled(let canceller): "cancelled \(canceller)"
      case .ended(let threw): threw ? "ended (threw)" : "ended"
      }
    }
  }

  /// For a node of a pipeline a `flatMap` built: that node's id, and the node's place among the
  /// nodes it built (`draw`'s order).
  public struct Built: Equatable, Sendable {
    public let parent: Int
    public let rank: Int

    public init(parent: Int, rank: Int) {
      self.parent = parent
      self.rank = rank
    }
  }

  /// A trace read back.
  public struct Recording: Sendable {
    public let pipeline: String
    public let clock: String
    public let labels: [String]
    /// Whether the traced pipeline ends in the `print` pipesh added, none being written (false in a
    /// recording of a session, whose jobs say it each, and in files written before it was saved).
    public let implicitSink: Bool
    /// How many events before the first one here were not kept (a probe's flight recorder keeps
    /// the last N: its lanes start mid-stream); 0 when nothing was dropped.
    public let dropped: Int
    public let events: [Event]
  }

  // MARK: writing

  /// The first line; `implicitSink` and `dropped` are written only when true and more than 0, so
  /// a reader of the files written before reads them as false and 0.
  public static func header(
    pipeline: String, virtualClock: Bool, labels: [String], implicitSink: Bool = false, dropped: Int = 0
  ) -> String {
    "{\"pipesh\":\"trace\",\"version\":\(version),\"pipeline\":\(quoted(pipeline)),"
      + "\"clock\":\"\(virtualClock ? "virtual" : "real")\",\"labels\":[\(labels.map(quoted).joined(separator: ","))]"
      + (implicitSink ? ",\"implicitSink\":true" : "") + (dropped > 0 ? ",\"dropped\":\(dropped)}" : "}")
  }

  /// A node's event: its time, job, node and label, where a `flatMap` built it, and what it did.
  /// With `task`, the task that did it (a probe's ask).
  public static func node(
    time: Duration, job: Int, node: Int, label: String, built: Built? = nil, task: Int? = nil, _ kind: EventKind
  ) -> String {
    var line = "{\"ns\":\(time.wholeNanoseconds),\"job\":\(job),\"node\":\(node),\"label\":\(quoted(label)),"
    if let built { line += "\"parent\":\(built.parent),\"rank\":\(built.rank)," }
    if let task { line += "\"task\":\(task)," }
    switch kind {
    case .start: line += "\"event\":\"start\""
    case .element(let value): line += "\"event\":\"element\",\"value\":\(quoted(value))"
    case .finished: line += "\"event\":\"finished\""
    case .failed(let reason): line += "\"event\":\"failed\",\"reason\":\(quoted(reason))"
    case .cancelled(let reason): line += "\"event\":\"cancelled\",\"reason\":\(quoted(reason))"
    case .asked: line += "\"event\":\"asked\""
    case .sending(let channel): line += "\"event\":\"sending\",\"channel\":\(quoted(channel))"
    }
    return line + "}"
  }

  /// A job started in a recorded session (`pipesh --record`), with the labels its lines are
  /// aligned to, and `implicitSink` (only when true) as in the header.
  public static func job(
    _ id: Int, pipeline: String, labels: [String], implicitSink: Bool = false, time: Duration
  ) -> String {
    "{\"ns\":\(time.wholeNanoseconds),\"job\":\(id),\"event\":\"job\",\"pipeline\":\(quoted(pipeline)),"
      + "\"labels\":[\(labels.map(quoted).joined(separator: ","))]"
      + (implicitSink ? ",\"implicitSink\":true}" : "}")
  }

  /// A task's event: `"event":"task"`, its number, the node whose code made it, and `started`
  /// with its kind, `cancelled` with by what, or `ended` with whether it threw.
  public static func task(time: Duration, job: Int, task: Int, label: String, _ kind: TaskEventKind) -> String {
    var line =
      "{\"ns\":\(time.wholeNanoseconds),\"job\":\(job),\"event\":\"task\",\"task\":\(task),"
      + "\"label\":\(quoted(label)),"
    switch kind {
    case .started(let kind): line += "\"what\":\"started\",\"kind\":\(quoted(kind))"
    case .cancelled(let canceller): line += "\"what\":\"cancelled\",\"by\":\(quoted(canceller))"
    case .ended(let threw): line += "\"what\":\"ended\",\"threw\":\(threw)"
    }
    return line + "}"
  }

  public static func output(_ text: String, time: Duration, jobID: Int) -> String {
    "{\"ns\":\(time.wholeNanoseconds),\"job\":\(jobID),\"event\":\"output\",\"text\":\(quoted(text))}"
  }

  /// A JSON string: `"`, `\` and control characters escaped; the rest as it is (UTF-8).
  public static func quoted(_ text: String) -> String {
    let escaped = text.escapingQuotesAndControls { scalar in
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    return "\"" + escaped + "\""
  }
}

extension DiagnosticID {
  /// A saved trace's file that does not read (`replay`, `draw "F.trace"`).
  public static let traceFile = DiagnosticID("trace-file")
}
