import PipeRuntime
import PipeSema
import PipeSession
import PipeSyntax

extension Commands {
  /// `draw PIPELINE`: runs it on a virtual clock of its own and draws one marble line per stage.
  enum Draw {
    static let entry = Command.pipelineOrTrace(.draw) { shell, pipeline, options in
      if options.dialect == .rxjs {
        return await shell.drawRxJS(pipeline, tick: options["tick"], until: options["until"])
      }
      await shell.draw(
        pipeline, tick: options["tick"], until: options["until"], demand: options.demand, to: options.file)
    } runTrace: { shell, path, options in
      if options.dialect == .rxjs { return shell.drawSavedRxJS(path, tick: options["tick"], until: options["until"]) }
      shell.drawSaved(
        path, tick: options["tick"], until: options["until"], demand: options.demand, to: options.file)
    }.example("draw timer 1 | take 3 | map { $0 * 10 }")
  }
}

extension Shell {
  /// `draw`: runs on a virtual clock of its own (the session's stands still) and prints one
  /// labelled marble line per node; an implicit sink is left out. With `demand`, each lane's
  /// demand lines under it (`Demand`).
  func draw(
    _ pipeline: CheckedPipeline, tick chosen: Duration? = nil, until: Duration? = nil, demand: Bool = false,
    to file: String? = nil, printing: Bool = false
  ) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let drawn = await drawnRun(pipeline, horizon: horizon, refining: chosen == nil, printing: printing)
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
    let lanes = TraceLanes(recording, until: until)
    guard !lanes.rows.isEmpty else {
      return engine.commandFailed(
        "draw: \(path) has no node events to draw; save one with trace PIPELINE to: \"F.trace\"")
    }
    let tick = chosen ?? DrawObserver.finestTick(.seconds(1), lanes: lanes.rows.map(\.events))
    let width = Format.screenWidth
    var rows: [(text: String, line: String)] = []
    var marks: Set<Int> = []
    var key = DemandKey()
    for row in lanes.rows {
      rows.append((row.label, DrawObserver.line(row.events, tick: tick)))
      guard demand else { continue }
      for line in Self.demandRows(Demand(row.all, tick: tick), holdings: nil, drops: [], key: &key) {
        marks.insert(rows.count)
        rows.append(line)
      }
    }
    func picture() -> MarblePicture {
      let end = lanes.rows.flatMap { $0.events.map(\.0) }.max() ?? .zero
      return MarblePicture(
        lanes: lanes.pictureLanes(demand: demand), end: max(end, tick),
        heading: PictureMarks.Heading(
          command: "draw \"\(path)\": a saved trace of \(recording.pipeline)",
          details: "\(recording.clock) clock · times from the trace's first event · a column of the text is "
            + MarbleLanes.label(tick)))
    }
    if file != nil || report != nil {
      let picture = picture()
      let text = Self.drawing(rows, tick: tick, width: 100_000, marks: marks).lines + key.lines(width: 100_000)
      writePicture(file, command: "draw", svg: picture.svg, title: "draw " + path, text: text)
      return
    }
    let (lines, cut) = Self.drawing(rows, tick: tick, width: width, marks: marks)
    for line in lines + key.lines(width: width) { console.line(line) }
    presentFeed?.picture(title: "draw " + path, svg: picture().svg)
    if chosen == nil, tick != .seconds(1) { note(Self.finerNote("draw", tick, .seconds(1)), width: width) }
    if cut { note(Self.cutNote("draw", width: width), width: width) }
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

  /// A lane's demand lines, labelled: its consumer's requests, an `into`'s sends, and what a queue
  /// held (`holdings`, with the instants its policy dropped an element); `key` notes the marks used.
  static func demandRows(
    _ demand: Demand, holdings: [ElementFates.Holding]?, drops: [Duration], key: inout DemandKey
  ) -> [(text: String, line: String)] {
    var rows: [(text: String, line: String)] = []
    if let line = demand.askLine {
      rows.append(("  asked", line))
      key.add(line, .asked)
    }
    if let line = demand.sendLine {
      rows.append(("  sending to " + demand.channels.joined(separator: ", "), line))
      key.add(line, .sending)
    }
    if let holdings {
      let line = demand.heldLine(holdings, dropped: drops)
      rows.append(("  held", line))
      key.add(line, .held)
    }
    return rows
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

  /// How far `draw` and `compare` run a pipeline: `until:`, else 60 ticks; at most the widest
  /// diagram (10,000 ticks).
  struct Horizon {
    static let defaultTicks = 60
    let tick: Duration
    let end: Duration
    let isDefault: Bool

    init(tick: Duration, until: Duration?) {
      self.tick = tick
      let widest = tick * DiagramRecorder.maximumColumns
      end = min(until ?? tick * Self.defaultTicks, widest)
      isDefault = until == nil
    }
  }

  /// What `draw` (and `compare`, for the AA side) shows of one recorded run.
  struct DrawnRun {
    /// One row per node, source first, a combinator's inputs before it; an implicit sink is left out.
    let rows: [(text: String, line: String)]
    /// The length of a column.
    let tick: Duration
    /// What the run recorded, for a picture: read only when one is drawn.
    let recorded: RecordedRun

    /// Why the run was stopped before the pipeline ended, if it was.
    var stop: RecordedRun.Stop? { recorded.stop }

    /// Every node's events at their exact times, in `rows`' order (`compare` pairs them by it).
    var lanes: [MarblePicture.Lane] {
      recorded.nodes.map { MarblePicture.Lane(label: $0.text, events: recorded.events(for: $0)) }
    }

    /// The same lanes in `draw`'s picture's order: a combinator's inputs before it, as in text,
    /// and the pipelines a flatMap built under it, indented, each lane as long as it lived.
    var pictureLanes: [MarblePicture.Lane] {
      func lanes(_ nodes: [Node], depth: Int, short: Bool) -> [MarblePicture.Lane] {
        nodes.filter { !(recorded.implicitSink && $0.isSink) }.flatMap { node in
          node.inputs.flatMap { lanes($0, depth: depth, short: short) }
            + [
              MarblePicture.Lane(
                label: node.text, events: recorded.events(for: node), depth: depth, short: short, node: node)
            ]
            + (node.children?.all ?? []).flatMap { lanes($0, depth: depth + 1, short: true) }
        }
      }
      return lanes(recorded.roots, depth: 0, short: false)
    }

    /// The rows with each lane's demand lines under it, which rows those are, and the key to their
    /// marks.
    var rowsWithDemand: (rows: [(text: String, line: String)], marks: Set<Int>, key: DemandKey) {
      let accounts = self.accounts
      var out: [(text: String, line: String)] = []
      var marks: Set<Int> = []
      var key = DemandKey()
      for (node, row) in zip(recorded.nodes, rows) {
        out.append(row)
        let account = accounts[ObjectIdentifier(node)]
        let demand = Demand(recorded.observer.demand(for: node), tick: tick)
        let holdings = account?.holdings ?? shareHoldings(node)
        for line in Shell.demandRows(demand, holdings: holdings, drops: account?.dropTimes ?? [], key: &key) {
          marks.insert(out.count)
          out.append(line)
        }
      }
      return (out, marks, key)
    }

    /// What a `share` held for its readers, from what was recorded: the elements its input passed
    /// to it, less what its slowest reader (of those that had begun to read) had taken, at each
    /// instant that changed. Its readers are the readings of its fragment (`t` of `let t = … |
    /// share`), or, inline, its one consumer, whose answers are its own elements. Nil for any other
    /// node, and for a share whose input was not recorded.
    private func shareHoldings(_ share: Node) -> [ElementFates.Holding]? {
      guard share.facts?.kind == .share,
        let input = recorded.nodes.first(where: { $0.downstream === share })
      else { return nil }
      func taken(_ node: Node) -> [Duration] {
        recorded.events(for: node).compactMap { event in
          if case .element = event.kind { event.time } else { nil }
        }
      }
      let readings = recorded.nodes.filter { node in
        node.kind == .sharedFragment && Node.flattened(node.fragment).contains { $0 === share }
      }
      let readers = readings.isEmpty ? [taken(share)] : readings.map(taken)
      let pulled = taken(input)
      let instants = Set(pulled + readers.flatMap { $0 }).sorted()
      var holdings: [ElementFates.Holding] = []
      for instant in instants {
        let started = readers.filter { ($0.first ?? .seconds(Int64.max)) <= instant }
        let slowest = started.map { reader in reader.count { $0 <= instant } }.min() ?? 0
        let held = max(0, pulled.count { $0 <= instant } - slowest)
        if held != holdings.last?.held ?? 0 { holdings.append(ElementFates.Holding(time: instant, held: held)) }
      }
      return holdings
    }

    /// `why`'s account of every node (what a queue held, what its policy dropped), by node.
    private var accounts: [ObjectIdentifier: ElementFates.Account] {
      let fates = ElementFates(nodes: recorded.roots, history: recorded.observer)
      return Dictionary(fates.accounts.map { (ObjectIdentifier($0.node), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `pictureLanes` with each lane's requests, sends, holdings and drops.
    var pictureLanesWithDemand: [MarblePicture.Lane] {
      let accounts = self.accounts
      return pictureLanes.map { lane in
        guard let node = lane.node else { return lane }
        var lane = lane
        let account = accounts[ObjectIdentifier(node)]
        lane.demand = MarblePicture.DemandBands(
          Demand(recorded.observer.demand(for: node), tick: tick), holdings: account?.holdings ?? shareHoldings(node),
          drops: account?.lost.filter {
            if case .lost(.bufferFull(_), _) = $0.fate { true } else { false }
          }.map { ($0.at, $0.value) } ?? [])
        return lane
      }
    }

    /// How far the run went: the horizon when it was stopped there, else its last event.
    var end: Duration {
      guard stop != .horizon else { return recorded.horizon }
      let last = recorded.nodes.flatMap { recorded.events(for: $0).map(\.time) }.max() ?? .zero
      return max(last, tick)
    }
  }

  /// Runs the pipeline on a virtual clock of its own (the engine's recorded run) and draws every
  /// node's events; with `refining`, in columns finer than the tick where events less than a tick
  /// apart would share one.
  func drawnRun(
    _ pipeline: CheckedPipeline, horizon: Horizon, refining: Bool, printing: Bool = false
  ) async -> DrawnRun {
    let recorded = await engine.recordedRun(pipeline, horizon: horizon.end, printing: printing)
    let tick = refining ? recorded.observer.finestTick(horizon.tick) : horizon.tick
    return DrawnRun(
      rows: recorded.nodes.map { ($0.text, recorded.observer.line(for: $0, tick: tick)) }, tick: tick,
      recorded: recorded)
  }
}

extension RecordedRun.Stop {
  /// What `draw` or `compare` says of a pipeline it cancelled before it had ended.
  func message(_ command: String, _ horizon: Shell.Horizon) -> String {
    switch self {
    case .events:
      return "\(command): stopped the pipeline after \(DrawObserver.maximumEvents) events"
    case .horizon where horizon.isDefault:
      return
        "\(command): the pipeline had not ended after \(Shell.Horizon.defaultTicks) ticks (\(MarbleLanes.label(horizon.end))): cancelled there; until: D draws further"
    case .horizon:
      return "\(command): the pipeline had not ended by \(MarbleLanes.label(horizon.end)): cancelled there"
    }
  }
}

/// A saved trace's node events as lanes: one per node, in the order of the labels its job was
/// traced with (a node `trace` did not name, such as a `flatMap`'s inner pipeline's, after
/// them), the jobs in the order they came; times from the first event. A job's implicit sink
/// (`"implicitSink":true`) is left out, as `draw P` leaves it out.
struct TraceLanes {
  struct Row {
    let label: String
    /// Its events, demand too (`draw "F.trace" demand: true` reads them).
    var all: [(Duration, TraceFile.EventKind)]
    /// Its events as a lane draws them: elements, start and end.
    var events: [(Duration, TraceFile.EventKind)] { all.filter { !$0.1.isDemand } }
  }

  private(set) var rows: [Row] = []
  /// The same rows in the order of `draw P to:`'s picture, a flatMap's pipelines under it, with
  /// how deep each stands.
  private(set) var pictureRows: [(row: Row, depth: Int)] = []

  private struct TracedNode {
    let job: Int
    let id: Int
    let label: String
    let built: TraceFile.Built?
  }

  init(_ recording: TraceFile.Recording, until: Duration?) {
    let origin = recording.events.first?.time ?? .zero
    var labels: [Int: [String]] = [:]
    var implicitSinks: Set<Int> = []
    var byNode: [[Int]: Int] = [:]
    var nodes: [TracedNode] = []
    var events: [[(Duration, TraceFile.EventKind)]] = []
    for event in recording.events {
      switch event.what {
      case .job(_, let jobLabels, let implicitSink):
        labels[event.job] = jobLabels
        if implicitSink { implicitSinks.insert(event.job) }
      case .output, .task: continue
      case .node(let id, let label, let kind, let built):
        let time = event.time - origin
        if let until, time > until { continue }
        let key = [event.job, id]
        if byNode[key] == nil {
          byNode[key] = nodes.count
          nodes.append(TracedNode(job: event.job, id: id, label: label, built: built))
          events.append([])
        }
        if let index = byNode[key] { events[index].append((time, kind)) }
      }
    }
    let jobs = nodes.reduce(into: [Int]()) { jobs, node in if !jobs.contains(node.job) { jobs.append(node.job) } }
    let many = jobs.count > 1
    var order: [(index: Int, depth: Int)] = []
    var pictureOrder: [(index: Int, depth: Int)] = []
    for job in jobs {
      let jobLabels = labels[job] ?? recording.labels
      var ofJob = nodes.indices.filter { nodes[$0].job == job }.sorted { nodes[$0].id < nodes[$1].id }
      // The implicit sink is the last label's node, of the pipeline's own (no flatMap built it).
      if labels[job] == nil ? recording.implicitSink : implicitSinks.contains(job),
        let sink = ofJob.last(where: { nodes[$0].built == nil && nodes[$0].label == jobLabels.last })
      {
        ofJob.removeAll { $0 == sink }
      }
      if ofJob.contains(where: { nodes[$0].built != nil }) {
        let (text, picture) = Self.ordered(ofJob, nodes, labels: jobLabels)
        order += text
        pictureOrder += picture
      } else {
        let text = Self.orderedByLabel(ofJob, nodes, labels: jobLabels)
        order += text
        pictureOrder += text
      }
    }
    func row(_ index: Int) -> Row {
      Row(label: many ? "[\(nodes[index].job)] \(nodes[index].label)" : nodes[index].label, all: events[index])
    }
    rows = order.map { row($0.index) }
    pictureRows = pictureOrder.map { (row($0.index), $0.depth) }
  }

  /// A job's nodes in the order of its labels (`trace` names the pipeline's own nodes), each
  /// node's built pipelines before it (text) or under it (picture), as `draw P` orders them: the
  /// trace says which node built which, and where among them each stands.
  private static func ordered(
    _ ofJob: [Int], _ nodes: [TracedNode], labels: [String]
  ) -> (text: [(index: Int, depth: Int)], picture: [(index: Int, depth: Int)]) {
    var top = ofJob.filter { nodes[$0].built == nil }
    var named: [Int] = []
    for label in labels {
      guard let found = top.firstIndex(where: { nodes[$0].label == label }) else { continue }
      named.append(top.remove(at: found))
    }
    var built: [Int: [Int]] = [:]
    for index in ofJob {
      if let parent = nodes[index].built?.parent { built[parent, default: []].append(index) }
    }
    for (parent, children) in built {
      built[parent] = children.sorted { (nodes[$0].built?.rank ?? 0, $0) < (nodes[$1].built?.rank ?? 0, $1) }
    }
    var placed = Set<Int>()
    func text(_ index: Int, _ depth: Int) -> [(index: Int, depth: Int)] {
      guard placed.insert(index).inserted else { return [] }
      return (built[nodes[index].id] ?? []).flatMap { text($0, depth + 1) } + [(index, depth)]
    }
    let roots = named + top
    var textOrder = roots.flatMap { text($0, 0) }
    // Nodes whose builder the trace does not hold (cut by until:, say) go last, as they came.
    textOrder += ofJob.filter { !placed.contains($0) }.map { ($0, 1) }
    placed.removeAll()
    func picture(_ index: Int, _ depth: Int) -> [(index: Int, depth: Int)] {
      guard placed.insert(index).inserted else { return [] }
      return [(index, depth)] + (built[nodes[index].id] ?? []).flatMap { picture($0, depth + 1) }
    }
    var pictureOrder = roots.flatMap { picture($0, 0) }
    pictureOrder += ofJob.filter { !placed.contains($0) }.map { ($0, 1) }
    return (textOrder, pictureOrder)
  }

  /// A trace written before traces said which node built which: the nodes not named by the
  /// labels are a flatMap's pipelines, `STAGE ($0 = V)`, put before the node whose body holds the
  /// stage (with a flatMap in another's body, possibly not where `draw P` puts them).
  private static func orderedByLabel(
    _ ofJob: [Int], _ nodes: [TracedNode], labels: [String]
  ) -> [(index: Int, depth: Int)] {
    var left = ofJob
    var named: [Int] = []
    for label in labels {
      guard let found = left.firstIndex(where: { nodes[$0].label == label }) else { continue }
      named.append(left.remove(at: found))
    }
    var order: [Int] = []
    for index in named {
      let owned = left.filter { stage(of: nodes[$0].label).map(nodes[index].label.contains) ?? false }
      order += owned + [index]
      left.removeAll(where: owned.contains)
    }
    order += left
    return order.map { ($0, stage(of: nodes[$0].label) == nil ? 0 : 1) }
  }

  /// The lanes as `draw P to:` draws them: a flatMap's pipelines indented under it, each lane as
  /// long as the node lived.
  func pictureLanes(demand: Bool) -> [MarblePicture.Lane] {
    pictureRows.map { row, depth in
      let events = row.events.map { time, kind in (time: time, kind: kind.nodeEventKind) }
      var lane = MarblePicture.Lane(label: row.label, events: events, depth: depth, short: depth > 0)
      // A saved trace does not say which operator a node is: what a queue held is not drawn.
      if demand {
        lane.demand = MarblePicture.DemandBands(Demand(row.all, tick: .seconds(1)), holdings: nil, drops: [])
      }
      return lane
    }
  }

  /// The stage text of a node of a flatMap's pipeline: its label without ` ($0 = V)`.
  private static func stage(of label: String) -> String? {
    guard let suffix = label.ranges(of: " ($0 = ").last else { return nil }
    return String(label[..<suffix.lowerBound])
  }
}

/// The key `draw … demand: true` prints once under its drawing: what the marks of its demand lines
/// mean (`Demand.Mark`), only those the drawing used, as the picture's legend lists only the marks
/// it drew.
struct DemandKey {
  enum Line { case asked, sending, held }

  private var used: [Line: Set<Character>] = [:]

  /// Notes the marks of one demand line of kind `kind`.
  mutating func add(_ line: String, _ kind: Line) {
    used[kind, default: []].formUnion(line)
  }

  /// Each kind of line drawn, with what its marks mean; none when no demand line was drawn.
  var rows: [[String]] {
    var rows: [[String]] = []
    func row(_ kind: Line, _ label: String, _ meanings: [(marks: Set<Character>, words: String)]) {
      guard let used = used[kind] else { return }
      let said = meanings.filter { !$0.marks.isDisjoint(with: used) }.map(\.words)
      if !said.isEmpty { rows.append([label, said.joined(separator: "; ")]) }
    }
    row(
      .asked, "asked",
      [
        ([Demand.Mark.asked], "\(Demand.Mark.asked) its consumer's request (next()) outstanding at the column's end"),
        ([Demand.Mark.answered], "\(Demand.Mark.answered) answered in the column, none outstanding at its end"),
        ([Demand.Mark.notAsked], "\(Demand.Mark.notAsked) not asked at any instant of the column"),
      ])
    row(
      .sending, "sending to",
      [
        (
          [Demand.Mark.waiting], "\(Demand.Mark.waiting) into waiting for a consumer of the channel at the column's end"
        ),
        ([Demand.Mark.answered], "\(Demand.Mark.answered) its element taken in the column"),
      ])
    row(
      .held, "held",
      [
        (Set("0123456789"), "a digit: how many elements it held at the column's end"),
        ([Demand.Mark.many], "\(Demand.Mark.many) ten or more"),
        ([Demand.Mark.dropped], "\(Demand.Mark.dropped) its policy dropped an element in the column"),
      ])
    return rows
  }

  /// The key in `width` columns: `key:` then a line a kind, its meanings wrapped under themselves.
  func lines(width: Int) -> [String] {
    let rows = self.rows
    guard !rows.isEmpty else { return [] }
    let labelled = rows.enumerated().map { index, row in [(index == 0 ? "key: " : "     ") + row[0]] + row.dropFirst() }
    return Format.wrappedTable(labelled, width: width)
  }
}
