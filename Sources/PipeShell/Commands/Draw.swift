import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat
import VirtualTime

extension Commands {
  /// `draw PIPELINE`: runs it on a virtual clock of its own and draws one marble line per stage.
  struct Draw: ShellCommand {
    static let signature = CommandSignature(
      "draw",
      .pipeline(
        partial: false,
        options: [
          "tick", "until", CommandOptions.demandLabel, CommandOptions.fileLabel, CommandOptions.dialectLabel,
          CommandOptions.orderLabel,
        ],
        savedTrace: true),
      usage:
        "draw PIPELINE|\"F.trace\" [tick: D] [until: D] [demand: true] [to: \"F.svg\"|\"F.html\"] [dialect: aa|rxjs] [order: TOKEN]",
      summary:
        "runs a pipeline on the virtual clock and draws one marble line per stage under a time ruler: a column per tick (tick:, else the first marble's, else 1s; finer when events less than a tick apart would share a column), until 60 ticks (until:); lines wider than the screen are cut at its edge; demand: true adds under each lane where its consumer's request (next()) was outstanding (- asked, . answered in that column, , not asked), an into's waits for a consumer (> waiting), and what a buffer or delay held (a digit a column, x where its policy dropped) or a share held for its slowest reader; to: writes an SVG picture (exact times, each node's lifetime under its lane; with demand: true a band where a request was outstanding) or a web page instead; a saved trace's file in place of the pipeline draws its events without running anything; dialect: rxjs writes the lanes in RxJS's marble syntax instead (a frame per column, frame 0 the start, (ab) a group whose characters take the frames after it, # failed, ! cancelled, a value that is not one plain character as a letter listed under the lanes, a = 10), which marble \"…\" dialect: rxjs tick: D reads back; order: TOKEN runs it in the order explore named with TOKEN (a token made for another pipeline, or whose choices do not fit its run, is refused); without it, a run that passed a choice (two or more of the pipeline's tasks runnable first at one instant) says in a line under the drawing that it is one order of several, as explore shows"
    )
    static let example = HelpExample("draw timer 1 | take 3 | map { $0 * 10 }")
    /// The pipeline to run and draw, or the saved trace to draw.
    let target: CommandReader.PipelineOrTrace

    static func check(_ reader: inout CommandReader) -> Self? { reader.pipelineOrSavedTrace().map(Self.init) }

    var reach: CommandReach {
      switch target {
      case .pipeline(let pipeline, let options): .runs(pipeline, writing: options.file)
      case .savedTrace(let path, _): .reads("draw \"\(path)\" reads a saved trace's file")
      }
    }

    var export: CommandExport { .own(startsJob: true) }

    func run(in shell: Shell) async {
      switch target {
      case .pipeline(let pipeline, let options):
        if options.dialect == .rxjs {
          return await shell.drawRxJS(pipeline, tick: options["tick"], until: options["until"])
        }
        await shell.draw(
          pipeline, tick: options["tick"], until: options["until"], demand: options.demand, to: options.file,
          order: options.order, orderArgument: options.orderArgument)
      case .savedTrace(let path, let options):
        if options.order != nil {
          return shell.engine.commandFailed(
            "draw: order: runs a pipeline in an order explore named; a saved trace is not run",
            at: options.orderArgument)
        }
        if options.dialect == .rxjs { return shell.drawSavedRxJS(path, tick: options["tick"], until: options["until"]) }
        shell.drawSaved(
          path, tick: options["tick"], until: options["until"], demand: options.demand, to: options.file)
      }
    }
  }
}

extension Shell {
  /// `draw`: runs on a virtual clock of its own (the session's stands still) and prints one
  /// labelled marble line per node; an implicit sink is left out. With `demand`, each lane's
  /// demand lines under it (`Demand`).
  func draw(
    _ pipeline: CheckedPipeline, tick chosen: Duration? = nil, until: Duration? = nil, demand: Bool = false,
    to file: String? = nil, printing: Bool = false, order token: OrderToken? = nil, orderArgument: Int? = nil
  ) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let named = token.map { Engine.order(replaying: $0.choices) }
    // Without a token the clock's own order, watched for the choices it passed.
    let watched = named == nil ? Engine.orderWatchingChoices() : nil
    // In a named order, what the pipeline prints is held until the order is known to fit.
    let held = named.map { _ in Locked<[String]>([]) }
    let drawn = await drawnRun(
      pipeline, horizon: horizon, refining: chosen == nil, printing: printing, order: named ?? watched,
      printedInto: held)
    if let order = named, order.misfit {
      return engine.commandFailed(
        "draw: this order: does not fit the pipeline's run (a choice it names was not there); explore it for its orders",
        at: orderArgument)
    }
    for line in held?.withLock({ $0 }) ?? [] { console.line(line) }
    let width = Format.screenWidth
    let (rows, marks, key) = demand ? drawn.rowsWithDemand : (drawn.rows, [], DemandKey())
    func picture() -> MarblePicture {
      var lanes = demand ? drawn.pictureLanesWithDemand : drawn.pictureLanes
      var end = drawn.end
      if let page {
        lanes = Self.annotatingMarbles(lanes, of: pipeline, in: page)
        // The axis reaches the end of every editable text, shown or not, so the page can move it.
        end = lanes.compactMap(\.textReach).reduce(end, max)
      }
      return MarblePicture(
        lanes: lanes, end: end,
        heading: PictureMarks.Heading(
          command: "draw " + pipeline.text,
          details: "job \(drawn.recorded.jobID) · on a virtual clock of its own, from 0 at the job's start · "
            + "a column of the text is \(MarbleLanes.label(drawn.tick))"))
    }
    if file != nil || report != nil {
      let picture = picture()
      let text = Self.drawing(rows, tick: drawn.tick, width: 100_000, marks: marks).lines + key.lines(width: 100_000)
      writePicture(
        file, command: "draw", svg: picture.svg, title: "draw " + pipeline.text, text: text)
      if let stop = drawn.stop { note(stop.message("draw", horizon), width: width) }
      return
    }
    let (lines, cut) = Self.drawing(rows, tick: drawn.tick, width: width, marks: marks)
    for line in lines + key.lines(width: width) { console.line(line) }
    presentFeed?.picture(title: "draw " + pipeline.text, svg: picture().svg)
    if drawn.tick != horizon.tick { note(Self.finerNote("draw", drawn.tick, horizon.tick), width: width) }
    if cut { note(Self.cutNote("draw", width: width), width: width) }
    if let stop = drawn.stop { note(stop.message("draw", horizon), width: width) }
    if let choices = watched.flatMap(Self.choiceNote) { note(choices, width: width) }
  }

  /// What `draw` says of a run that passed choices (several tasks of the pipeline runnable at one
  /// instant, as `explore` counts them): it is one order of several. Nil when it passed none.
  static func choiceNote(_ order: ChoiceOrder) -> String? {
    let instants = Set(order.instants).sorted()
    guard let first = instants.first else { return nil }
    let others = instants.count - 1
    let more = others == 0 ? "" : " and \(others) other instant\(others == 1 ? "" : "s")"
    return "draw: one order of several: at \(MarbleLanes.label(first))\(more) another task could go first; see explore"
  }

  /// `pipesh --page`: the lanes of the pipeline's `marble "…"` sources written with a literal
  /// (not those a `flatMap` built) annotated for the page to edit. The lanes of marble nodes come
  /// in the order of the marble stages, a combinator's inputs before it; a lane whose label is not
  /// its stage's text is left as it is.
  static func annotatingMarbles(
    _ lanes: [MarblePicture.Lane], of pipeline: CheckedPipeline, in source: SourceFile
  ) -> [MarblePicture.Lane] {
    func marbles(_ pipeline: CheckedPipeline) -> [CheckedStage] {
      pipeline.stages.flatMap { stage in
        stage.inputs.flatMap(marbles) + (stage.kind == .marble ? [stage] : [])
      }
    }
    var stages = marbles(pipeline)[...]
    return lanes.map { lane in
      guard lane.depth == 0, lane.node?.facts?.kind == .marble, let stage = stages.popFirst(),
        stage.text == lane.label
      else { return lane }
      var lane = lane
      lane.editable = EditableMarble(stage, in: source)
      return lane
    }
  }

  /// `draw "F.trace"`: a saved trace's events drawn as `draw` draws a run, a lane per node (per job
  /// and node in a recording of a session), times from the trace's first event, up to `until`.
  /// With `file` (`draw "F.trace" to: "F.svg"`), the picture `draw P to:` writes, from the trace.
  /// With `demand`, each lane's requests and an `into`'s sends under it (what a buffer held needs
  /// its operator, which a trace does not name: not drawn).
  func drawSaved(
    _ path: String, tick chosen: Duration?, until: Duration?, demand: Bool = false, to file: String? = nil
  ) {
    guard let recording = readTrace(path, command: "draw") else { return }
    guard !TraceLanes(recording, until: until).rows.isEmpty else {
      return engine.commandFailed(
        "draw: \(path) has no node events to draw; save one with trace PIPELINE to: \"F.trace\"")
    }
    drawRecording(recording, named: path, tick: chosen, until: until, demand: demand, to: file)
  }

  /// What a drawing of a trace is made of: its text's rows (demand rows marked), their key, its
  /// tick, and its picture.
  private struct RecordingDrawing {
    var rows: [(text: String, line: String)] = []
    var marks: Set<Int> = []
    var key = DemandKey()
    let tick: Duration
    /// The tick at which no two events of a lane at different times share a column.
    var apart: Duration
    let picture: () -> MarblePicture

    /// The text, every lane whole (a picture's page carries it).
    var wholeText: [String] {
      Shell.drawing(rows, tick: tick, width: 100_000, marks: marks).lines + key.lines(width: 100_000)
    }
  }

  private func recordingDrawing(
    _ recording: TraceFile.Recording, named path: String, only: Set<String>?, tick chosen: Duration?,
    until: Duration?, demand: Bool
  ) -> RecordingDrawing {
    let lanes = TraceLanes(recording, until: until, only: only)
    let tick = chosen ?? DrawObserver.finestTick(.seconds(1), lanes: lanes.rows.map(\.events))
    let apart = chosen.map { DrawObserver.finestTick($0, lanes: lanes.rows.map(\.events)) } ?? tick
    var drawing = RecordingDrawing(tick: tick, apart: apart) {
      let end = lanes.rows.flatMap { $0.events.map(\.0) }.max() ?? .zero
      return MarblePicture(
        lanes: lanes.pictureLanes(demand: demand), end: max(end, tick),
        heading: PictureMarks.Heading(
          command: "draw \"\(path)\": a saved trace of \(recording.pipeline)",
          details: "\(recording.clock) clock · times from the trace's first event · a column of the text is "
            + MarbleLanes.label(tick)
            + (recording.dropped > 0
              ? " · it starts mid-stream: the recorder dropped the \(recording.dropped) events before it" : "")))
    }
    for row in lanes.rows {
      drawing.rows.append((row.label, DrawObserver.line(row.events, tick: tick)))
      guard demand else { continue }
      for line in Self.demandRows(Demand(row.all, tick: tick), holdings: nil, drops: [], key: &drawing.key) {
        drawing.marks.insert(drawing.rows.count)
        drawing.rows.append(line)
      }
    }
    return drawing
  }

  /// Draws a trace read already (a file's, or an attached program's as it is now), the lanes of
  /// `only`'s labels alone when given.
  func drawRecording(
    _ recording: TraceFile.Recording, named path: String, only: Set<String>? = nil, tick chosen: Duration?,
    until: Duration?, demand: Bool = false, to file: String? = nil
  ) {
    let drawing = recordingDrawing(recording, named: path, only: only, tick: chosen, until: until, demand: demand)
    if file != nil || report != nil {
      writePicture(file, command: "draw", svg: drawing.picture().svg, title: "draw " + path, text: drawing.wholeText)
      return
    }
    let width = Format.screenWidth
    let (lines, cut) = Self.drawing(drawing.rows, tick: drawing.tick, width: width, marks: drawing.marks)
    for line in lines + drawing.key.lines(width: width) { console.line(line) }
    presentFeed?.picture(title: "draw " + path, svg: drawing.picture().svg)
    if chosen == nil, drawing.tick != .seconds(1) {
      note(Self.finerNote("draw", drawing.tick, .seconds(1)), width: width)
    }
    if drawing.apart < drawing.tick {
      // The tick asked for draws events that came at different times in one column.
      note(
        "draw: at tick: \(MarbleLanes.label(drawing.tick)), events of a lane that came at different times share a column "
          + "(the first column holds what came before its tick too): tick: \(MarbleLanes.label(drawing.apart)) "
          + "draws them apart", width: width)
    }
    if cut { note(Self.cutNote("draw", width: width), width: width) }
  }

  /// `pipesh serve "F.trace"`: the web page `draw "F.trace" to: "F.html"` writes, or nil when the
  /// file cannot be read, is no trace, or has nothing to draw (the error said, as `draw`'s).
  public func savedTracePage(_ path: String) -> String? {
    guard let recording = readTrace(path, command: "pipesh serve") else { return nil }
    guard !TraceLanes(recording, until: nil).rows.isEmpty else {
      engine.commandFailed(
        "pipesh serve: \(path) has no node events to draw; save one with trace PIPELINE to: \"F.trace\"")
      return nil
    }
    let drawing = recordingDrawing(recording, named: path, only: nil, tick: nil, until: nil, demand: false)
    return PicturePage.html(title: "draw " + path, svg: drawing.picture().svg, text: drawing.wholeText)
  }

  /// `draw`'s lines in `width` columns: a ruler, then a labelled lane per node on one grid; a
  /// label wider than two fifths of the width is shortened with `…`, a lane wider than the room
  /// left is cut at the edge (`cut`). The rows `marks` names are a mark per column (demand).
  static func drawing(
    _ rows: [(text: String, line: String)], tick: Duration, width: Int, marks: Set<Int> = []
  ) -> (
    lines: [String], cut: Bool
  ) {
    let lanes = MarbleLanes(rows.map(\.line), tick: tick, marks: marks)
    let laid = laidOut(rows.map(\.text), ruler: lanes.ruler, lanes: lanes.lines, width: width)
    return (laid.lines, laid.cut)
  }

  /// Labels beside lanes already aligned, under their ruler, in `width` columns: a label wider
  /// than two fifths of the width is shortened with `…`, a lane wider than the room left is cut at
  /// the edge (`cut`). `indent`: the column the lanes start at.
  static func laidOut(
    _ labels: [String], ruler: String, lanes: [String], width: Int
  ) -> (lines: [String], cut: Bool, indent: Int) {
    let labelWidth = Format.labelWidth(
      labels.map(Format.columns).max() ?? 0, beside: lanes.map(Format.columns).max() ?? 0, gap: 3, width: width)
    let room = max(10, width - labelWidth - 3)
    var cut = false
    let lines = zip([""] + labels, [ruler] + lanes).map { label, lane in
      var fitted = lane
      if Format.columns(lane) > room {
        cut = true
        fitted = Format.shortened(lane, to: room)
      }
      var line = Format.pad(Format.shortened(label, to: labelWidth), labelWidth + 3) + fitted
      while line.last == " " { line.removeLast() }
      return line
    }
    return (lines, cut, labelWidth + 3)
  }

  /// A note of `draw` or `compare` on standard error, wrapped to the screen.
  func note(_ text: String, width: Int) {
    for line in Format.wrapped(text, width: width) { console.line(line, to: .error) }
  }

  /// What `draw` and `compare` say when they drew in columns finer than the tick.
  static func finerNote(_ command: String, _ tick: Duration, _ asked: Duration) -> String {
    "\(command): a column is \(MarbleLanes.label(tick)), not \(MarbleLanes.label(asked)): events less than a tick apart "
      + "would have looked simultaneous; tick: D sets it"
  }

  /// What `draw` and `compare` say when they cut lines at the screen's edge.
  static func cutNote(_ command: String, width: Int) -> String {
    "\(command): lines cut at the screen's edge (\(width) columns, … marks the cut): a larger tick: or an earlier until: shows them whole"
  }
}
