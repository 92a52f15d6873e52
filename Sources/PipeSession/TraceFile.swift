import PipeRuntime
import PipeSema
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
  /// The limits of a saved trace, as the messages say them.
  public static let limits = "a trace keeps at most \(TraceRecorder.maximumEvents) events and \(maximumBytes >> 20) MiB"

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

    /// The event as a run's node event, for a picture: an element's value is its printed text.
    public var nodeEventKind: NodeEvent.Kind {
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

    public init(_ kind: NodeEvent.Kind) {
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

    /// As `trace` prints it.
    public var described: String {
      switch self {
      case .start: "start"
      case .element(let value): "→ \(value.showingControlCharacters)"
      case .finished: "finished"
      case .failed(let reason): "failed: \(reason)"
      case .cancelled(let reason): reason.isEmpty ? "cancelled" : "cancelled (\(reason))"
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

    public init(_ event: TaskEvent) {
      switch event.kind {
      case .started: self = .started(kind: event.task.kindText)
      case .cancelled(let canceller): self = .cancelled(by: canceller.described)
      case .ended(let threw): self = .ended(threw: threw)
      }
    }

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
  }

  /// A trace read back.
  public struct Recording: Sendable {
    public let pipeline: String
    public let clock: String
    public let labels: [String]
    /// Whether the traced pipeline ends in the `print` pipesh added, none being written (false in a
    /// recording of a session, whose jobs say it each, and in files written before it was saved).
    public let implicitSink: Bool
    public let events: [Event]
  }

  // MARK: writing

  /// The first line; `implicitSink` is written only when true, so a reader of the files written
  /// before reads it as false.
  public static func header(
    pipeline: String, virtualClock: Bool, labels: [String], implicitSink: Bool = false
  ) -> String {
    "{\"pipesh\":\"trace\",\"version\":\(version),\"pipeline\":\(quoted(pipeline)),"
      + "\"clock\":\"\(virtualClock ? "virtual" : "real")\",\"labels\":[\(labels.map(quoted).joined(separator: ","))]"
      + (implicitSink ? ",\"implicitSink\":true}" : "}")
  }

  public static func line(_ event: NodeEvent) -> String {
    var line =
      "{\"ns\":\(event.time.wholeNanoseconds),\"job\":\(event.jobID),\"node\":\(event.node.id),\"label\":\(quoted(event.node.text)),"
    if let built = event.node.built { line += "\"parent\":\(built.by),\"rank\":\(built.rank)," }
    switch EventKind(event.kind) {
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
  public static func task(_ event: TaskEvent) -> String {
    var line =
      "{\"ns\":\(event.time.wholeNanoseconds),\"job\":\(event.task.jobID),\"event\":\"task\",\"task\":\(event.task.id),"
      + "\"label\":\(quoted(event.task.node?.text ?? "")),"
    switch TaskEventKind(event) {
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

  // MARK: reading

  /// What is wrong with a saved trace's text, nil when `replay` can show it (the fuzz target's
  /// and the tests' door to `parse`).
  public static func problem(in text: String) -> Diagnostic? {
    if case .failure(let problem) = parse(text) { return problem }
    return nil
  }

  /// Reads a saved trace; a line that is not what `trace … to:` writes is an error at its place.
  public static func parse(_ text: String) -> Result<Recording, Diagnostic> {
    let bytes = Array(text.utf8)
    var lines: [(start: Int, object: [String: JSONValue])] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      if end > start {
        var reader = JSONReader(bytes: bytes, at: start, end: end)
        switch reader.objectLine() {
        case .success(let object): lines.append((start, object))
        case .failure(let problem): return .failure(problem)
        }
      }
      start = end + 1
    }
    guard let first = lines.first else {
      return .failure(problem("the file is empty: save a trace with trace PIPELINE to: \"F.trace\"", at: 0, 0))
    }
    let header = Fields(first.object, at: first.start)
    guard case .string("trace") = first.object["pipesh"] else {
      return .failure(
        problem("not a pipesh trace: its first line has no \"pipesh\":\"trace\"", at: first.start, first.start))
    }
    do throws(Diagnostic) {
      guard try header.integer("version") == version else {
        throw problem(
          "a trace of version \(version) was expected (this pipesh reads only that)", at: first.start, first.start)
      }
      var events: [Event] = []
      for line in lines.dropFirst() { events.append(try event(Fields(line.object, at: line.start))) }
      return .success(
        Recording(
          pipeline: try header.string("pipeline"), clock: try header.string("clock"),
          labels: try header.strings("labels"), implicitSink: try header.optionalBool("implicitSink"),
          events: events))
    } catch {
      return .failure(error)
    }
  }

  private static func event(_ fields: Fields) throws(Diagnostic) -> Event {
    let nanoseconds = try fields.integer("ns")
    guard nanoseconds >= 0 else { throw fields.problem("\"ns\" must be 0 or more") }
    let time = Duration.nanoseconds(nanoseconds)
    let event = try fields.string("event")
    if event == "output" {
      return Event(time: time, job: try fields.integer("job"), what: .output(try fields.string("text")))
    }
    if event == "job" {
      return Event(
        time: time, job: try fields.integer("job"),
        what: .job(
          pipeline: try fields.string("pipeline"), labels: try fields.strings("labels"),
          implicitSink: try fields.optionalBool("implicitSink")))
    }
    if event == "task" {
      let kind: TaskEventKind
      switch try fields.string("what") {
      case "started": kind = .started(kind: try fields.string("kind"))
      case "cancelled": kind = .cancelled(by: try fields.string("by"))
      case "ended": kind = .ended(threw: try fields.bool("threw"))
      case let other: throw fields.problem("unknown task event \"\(other)\": one of started, cancelled, ended")
      }
      let id = try fields.integer("task")
      guard id > 0 else { throw fields.problem("\"task\" must be 1 or more") }
      return Event(
        time: time, job: try fields.integer("job"), what: .task(id: id, label: try fields.string("label"), kind))
    }
    let kind: EventKind
    switch event {
    case "start": kind = .start
    case "element": kind = .element(try fields.string("value"))
    case "finished": kind = .finished
    case "failed": kind = .failed(try fields.string("reason"))
    case "cancelled": kind = .cancelled(try fields.string("reason"))
    case "asked": kind = .asked
    case "sending": kind = .sending(to: try fields.string("channel"))
    case let other:
      throw fields.problem(
        "unknown event \"\(other)\": one of start, element, finished, failed, cancelled, asked, sending, output, job, task"
      )
    }
    var built: Built?
    if fields.object["parent"] != nil || fields.object["rank"] != nil {
      let parent = try fields.integer("parent")
      let rank = try fields.integer("rank")
      guard parent >= 0, rank >= 0 else { throw fields.problem("\"parent\" and \"rank\" must be 0 or more") }
      built = Built(parent: parent, rank: rank)
    }
    return Event(
      time: time, job: try fields.integer("job"),
      what: .node(id: try fields.integer("node"), label: try fields.string("label"), kind, built: built))
  }

  public static func problem(_ message: String, at start: Int, _ end: Int) -> Diagnostic {
    Diagnostic(
      id: .traceFile, message: message, range: SourceRange(start, end + 1),
      notes: ["a trace file is what trace PIPELINE to: \"F.trace\" writes, one JSON object a line"])
  }

  /// One line's fields, read with errors at the line's start.
  private struct Fields {
    public let object: [String: JSONValue]
    public let start: Int

    public init(_ object: [String: JSONValue], at start: Int) {
      self.object = object
      self.start = start
    }

    public func problem(_ message: String) -> Diagnostic { TraceFile.problem(message, at: start, start) }

    public func string(_ name: String) throws(Diagnostic) -> String {
      guard case .string(let text) = object[name] else { throw problem("expected \"\(name)\" to be a string") }
      return text
    }

    public func bool(_ name: String) throws(Diagnostic) -> Bool {
      guard case .bool(let value) = object[name] else { throw problem("expected \"\(name)\" to be true or false") }
      return value
    }

    /// A flag that files written before it was saved do not hold: absent is false.
    public func optionalBool(_ name: String) throws(Diagnostic) -> Bool {
      object[name] == nil ? false : try bool(name)
    }

    public func integer(_ name: String) throws(Diagnostic) -> Int {
      guard case .integer(let value) = object[name] else { throw problem("expected \"\(name)\" to be a whole number") }
      return value
    }

    public func strings(_ name: String) throws(Diagnostic) -> [String] {
      guard case .array(let items) = object[name] else { throw problem("expected \"\(name)\" to be a list of strings") }
      var texts: [String] = []
      for item in items {
        guard case .string(let text) = item else { throw problem("expected \"\(name)\" to be a list of strings") }
        texts.append(text)
      }
      return texts
    }
  }
}

/// The JSON a trace file holds: no fractions or exponents (times are whole nanoseconds).
public enum JSONValue: Equatable, Sendable {
  case string(String)
  case integer(Int)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([String: JSONValue])
}

/// A strict reader of one JSON object on one line (RFC 8259, numbers whole), with the byte offset
/// of the first thing wrong.
public struct JSONReader {
  public let bytes: [UInt8]
  public var position: Int
  public let end: Int
  /// Deeper nesting is refused, not recursed into.
  static let maximumDepth = 32

  public init(bytes: [UInt8], at start: Int, end: Int) {
    self.bytes = bytes
    self.position = start
    self.end = end
  }

  public mutating func objectLine() -> Result<[String: JSONValue], Diagnostic> {
    do throws(Diagnostic) {
      skipSpace()
      guard peek == UInt8(ascii: "{") else { throw fail("expected a JSON object ({…}) on this line") }
      guard case .object(let object) = try value(depth: 0) else { throw fail("expected a JSON object") }
      skipSpace()
      guard position == end else { throw fail("expected the line to end after its object") }
      return .success(object)
    } catch {
      return .failure(error)
    }
  }

  private var peek: UInt8? { position < end ? bytes[position] : nil }

  private func fail(_ message: String) -> Diagnostic {
    TraceFile.problem(message, at: position, position)
  }

  private mutating func skipSpace() {
    while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0D { position += 1 }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(Diagnostic) {
    skipSpace()
    guard peek == byte else { throw fail("expected \(what)") }
    position += 1
  }

  private mutating func value(depth: Int) throws(Diagnostic) -> JSONValue {
    guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
    skipSpace()
    guard let byte = peek else { throw fail("expected a value") }
    switch byte {
    case UInt8(ascii: "{"):
      position += 1
      var object: [String: JSONValue] = [:]
      skipSpace()
      if peek == UInt8(ascii: "}") {
        position += 1
        return .object(object)
      }
      repeat {
        skipSpace()
        let keyStart = position
        let key = try string()
        guard object[key] == nil else {
          position = keyStart
          throw fail("\"\(key)\" is given twice")
        }
        try expect(UInt8(ascii: ":"), "':' after a name")
        object[key] = try value(depth: depth + 1)
        skipSpace()
      } while try more(closing: UInt8(ascii: "}"))
      return .object(object)
    case UInt8(ascii: "["):
      position += 1
      var items: [JSONValue] = []
      skipSpace()
      if peek == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      }
      repeat {
        items.append(try value(depth: depth + 1))
        skipSpace()
      } while try more(closing: UInt8(ascii: "]"))
      return .array(items)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
    default:
      for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] {
        let word = Array(word.utf8)
        if position + word.count <= end, Array(bytes[position..<position + word.count]) == word {
          position += word.count
          return value
        }
      }
      throw fail("expected a value (a string, a whole number, true, false, null, […] or {…})")
    }
  }

  /// After an item: true at `,`, false at the closing bracket.
  private mutating func more(closing: UInt8) throws(Diagnostic) -> Bool {
    guard let byte = peek else { throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'") }
    position += 1
    if byte == UInt8(ascii: ",") { return true }
    if byte == closing { return false }
    position -= 1
    throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
  }

  private mutating func integer() throws(Diagnostic) -> Int {
    let start = position
    if peek == UInt8(ascii: "-") { position += 1 }
    let digitsStart = position
    while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
    guard position > digitsStart else { throw fail("expected a digit") }
    if bytes[digitsStart] == UInt8(ascii: "0"), position - digitsStart > 1 {
      position = digitsStart
      throw fail("a number does not start with 0")
    }
    if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      throw fail("expected a whole number (times are whole nanoseconds)")
    }
    guard let value = Int(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      position = start
      throw fail("the number is too large")
    }
    return value
  }

  private mutating func string() throws(Diagnostic) -> String {
    guard peek == UInt8(ascii: "\"") else { throw fail("expected a string (\"…\")") }
    position += 1
    // Plain runs are appended as whole strings: a scalar at a time, a value of megabytes took
    // seconds.
    var text = ""
    var plainStart = position
    func flush(_ reader: JSONReader) {
      text += String(decoding: reader.bytes[plainStart..<reader.position], as: UTF8.self)
    }
    while true {
      guard let byte = peek else { throw fail("the string does not end on this line (a '\"' is missing)") }
      if byte == UInt8(ascii: "\"") {
        flush(self)
        position += 1
        return text
      }
      if byte < 0x20 { throw fail("a control character in a string must be escaped (\\n, \\u0001)") }
      guard byte == UInt8(ascii: "\\") else {
        position = plainEnd(from: position + 1)
        continue
      }
      flush(self)
      position += 1
      guard let escaped = peek else { throw fail("expected an escape after '\\'") }
      position += 1
      switch escaped {
      case UInt8(ascii: "\""): text.append("\"")
      case UInt8(ascii: "\\"): text.append("\\")
      case UInt8(ascii: "/"): text.append("/")
      case UInt8(ascii: "b"): text.append("\u{08}")
      case UInt8(ascii: "f"): text.append("\u{0C}")
      case UInt8(ascii: "n"): text.append("\n")
      case UInt8(ascii: "r"): text.append("\r")
      case UInt8(ascii: "t"): text.append("\t")
      case UInt8(ascii: "u"): text.unicodeScalars.append(try unicodeEscape())
      default:
        position -= 1
        throw fail("unknown escape '\\\(Character(Unicode.Scalar(escaped)))'")
      }
      plainStart = position
    }
  }

  /// Where the run of plain bytes of a string that starts at `start` ends: at a quote, a backslash,
  /// a control character or the line's end. One pass over a buffer, not a call per byte: a trace's
  /// values can be megabytes long.
  private func plainEnd(from start: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      var index = start
      while index < end {
        let byte = buffer[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        index += 1
      }
      return index
    }
  }

  /// `\uXXXX` after the `u`, a surrogate pair as two of them.
  private mutating func unicodeEscape() throws(Diagnostic) -> Unicode.Scalar {
    let high = try hexQuad()
    guard (0xD800...0xDBFF).contains(high) else {
      guard let scalar = Unicode.Scalar(high) else { throw fail("\\u\(String(high, radix: 16)) is half of a pair") }
      return scalar
    }
    guard position + 1 < end, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
      throw fail("expected the second half of a \\u surrogate pair")
    }
    position += 2
    let low = try hexQuad()
    guard (0xDC00...0xDFFF).contains(low),
      let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    else { throw fail("expected the second half of a \\u surrogate pair") }
    return scalar
  }

  private mutating func hexQuad() throws(Diagnostic) -> UInt32 {
    guard position + 4 <= end,
      let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
      bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
    else { throw fail("expected four hex digits after \\u") }
    position += 4
    return value
  }
}

extension DiagnosticID {
  /// A saved trace's file that does not read (`replay`, `draw "F.trace"`).
  static let traceFile = DiagnosticID("trace-file")
}
