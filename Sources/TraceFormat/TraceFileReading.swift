import PipeSyntax

/// Reading a saved trace back: each line's JSON object checked field by field, an error at the
/// place of the first thing wrong.
extension TraceFile {
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
          dropped: try header.count("dropped"), events: events))
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
    var task: Int?
    if fields.object["task"] != nil {
      task = try fields.integer("task")
      guard let task, task >= 1 else { throw fields.problem("\"task\" must be 1 or more") }
    }
    return Event(
      time: time, job: try fields.integer("job"),
      what: .node(id: try fields.integer("node"), label: try fields.string("label"), kind, built: built), task: task)
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

    /// A count that files written before it was saved do not hold: absent is 0.
    public func count(_ name: String) throws(Diagnostic) -> Int {
      guard object[name] != nil else { return 0 }
      let value = try integer(name)
      guard value >= 0 else { throw problem("\"\(name)\" must be 0 or more") }
      return value
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
