import Markup
import PipeRuntime
import PipeSema
import PipeSession
import PipeSyntax

/// `draw … to: "F.svg"`: the marble diagram as an SVG picture, on a true time axis.
///
/// A title (the command as typed, its job, its clock and tick, where the axis starts), then one
/// lane per node, labelled with the stage's text. Elements are marbles at their exact time with the
/// value inside, whole where it fits (the axis is stretched so that neighbours' values fit, up to
/// 8,000 pixels), cut with `…` where it does not and then written whole under the lane; the time
/// and whole value are in each marble's `<title>`, which a browser shows on hover. Elements of the
/// same instant stack upward. The end of a node's output is drawn as every picture draws it
/// (`PictureMarks.Ending`), with its reason as a title. Under each lane, the node's lifetime: a bar
/// from when its iteration started to when it ended, drawn by how it ended, with how it ended
/// written at its end. Last, a legend of the marks used. Shapes carry the meaning, not colours
/// alone; coordinates are whole pixels worked out from the virtual times, so a picture is the same
/// bytes in every run and build.
struct MarblePicture {
  /// One node's lane.
  struct Lane {
    let label: String
    let events: [(time: Duration, kind: NodeEvent.Kind)]
    /// A second, smaller line under the label (`compare`: which side, and the counterpart).
    var side: String?
    /// `compare`'s mark before the label: `≠` or `≈`.
    var mark = ""
    /// Drawn on a tinted band (`compare`: a row that differs).
    var highlighted = false
    /// How far in the label stands: a pipeline a `flatMap` built, under it.
    var depth = 0
    /// Whether the lane's life begins at 0 without a start event (`compare`'s Combine lanes: every
    /// publisher is subscribed to when the run starts). Otherwise a lane with no start never
    /// started, and gets no lifetime bar.
    var startsAtZero = false
    /// Whether the lane's line runs only while the node lived (a `flatMap`'s pipeline), not across
    /// the whole axis.
    var short = false
    /// The node drawn (a run's, not a saved trace's).
    var node: Node?
    /// `draw … demand: true`: its requests, sends, holdings and drops, drawn on the lane.
    var demand: DemandBands?
    /// `pipesh --page`: a `marble "…"` lane the page can edit, annotated (`EditableMarble`).
    var editable: EditableMarble?

    /// An editable lane: the time of its text's end (or last value), at its tick.
    var textReach: Duration? {
      editable.map { $0.tick * (max($0.ending.tick, $0.marks.last?.tick ?? 0) + 1) }
    }
  }

  /// What `draw … demand: true` adds to a lane: a band where a request was outstanding, a band with
  /// `>` where an `into` waited for a consumer, bars of what a queue held, and `x` for each element
  /// its policy dropped.
  struct DemandBands {
    let asks: [Demand.Span]
    let sends: [Demand.Span]
    let holdings: [ElementFates.Holding]?
    let drops: [(time: Duration, value: String)]

    init(_ demand: Demand, holdings: [ElementFates.Holding]?, drops: [(time: Duration, value: String)]) {
      asks = demand.asks
      sends = demand.sends
      self.holdings = holdings
      self.drops = drops
    }
  }

  let lanes: [Lane]
  /// How far the run went: the right end of the axis.
  let end: Duration
  /// The title: the command, its job and clock.
  let heading: PictureMarks.Heading

  static let labelWidth = 250
  static let margin = 20

  /// How many levels a label is indented: a lane built by a flatMap nested in flatMaps, however
  /// deep, keeps a label column of at least 16 characters.
  static func indentLevels(_ depth: Int) -> Int { min(max(depth, 0), 8) }

  /// `label` cut to the room its indentation leaves.
  static func shortened(_ label: String, depth: Int) -> String {
    let room = 32 - 2 * indentLevels(depth)
    return label.count > room ? String(label.prefix(room - 1)) + "…" : label
  }
  static let laneHeight = 70
  static let rulerHeight = 40
  static let stackStep = 22
  static let valuesLineHeight = 15
  static let fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

  /// About how wide `text` is at `size` pixels in the picture's font (DejaVu Sans runs a little
  /// over 0.6 of the size a character): enough to keep neighbours apart.
  static func textWidth(_ text: String, size: Int) -> Int {
    Int((Double(text.count) * 0.62 * Double(size)).rounded(.up))
  }

  /// The widest a marble is drawn: a longer value is cut inside it and written whole under its lane.
  static let widestMarble = 200

  /// A marble's width for a value, inside 11 to `widestMarble`.
  static func marbleWidth(_ value: String) -> Int {
    min(widestMarble, max(22, textWidth(value, size: 10) + 12))
  }

  /// The picture as a standalone SVG document.
  var svg: String {
    let scale = Scale(lanes: lanes, end: end)
    let laid = lanes.map { Self.laidOut($0, scale: scale) }
    let width = Self.labelWidth + scale.width + 2 * Self.margin + 120
    let top = Self.margin + heading.height(width: width) + Self.rulerHeight
    let tops = zip(lanes, laid).reduce(into: [top]) { tops, pair in
      let (lane, laid) = pair
      tops.append(
        tops[tops.count - 1] + Self.laneHeight + (Self.stackHeight(lane) - 1) * Self.stackStep
          + laid.valueLines(width: width).count * Self.valuesLineHeight)
    }
    let legend = self.legend.svg(top: (tops.last ?? 0) + 4, width: width)
    let height = (tops.last ?? 0) + 4 + legend.height + Self.margin
    var out = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        + "viewBox=\"0 0 \(width) \(height)\" font-family=\"\(Self.fontFamily)\" font-size=\"13\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
    ]
    out += heading.svg(width: width)
    out += Self.ruler(scale, end: end, top: Self.margin + heading.height(width: width), bottom: tops.last ?? 0)
    for (index, lane) in lanes.enumerated() {
      let top = tops[index] + (Self.stackHeight(lane) - 1) * Self.stackStep
      out += draw(lane, laid[index], top: top, scale: scale, rightEdge: width - Self.margin)
    }
    out += legend.lines
    out.append("</svg>")
    return out.joined(separator: "\n") + "\n"
  }

  /// The marks this picture uses, for its legend.
  var legend: PictureMarks.Legend {
    var legend = PictureMarks.Legend()
    for lane in lanes {
      for (_, kind) in lane.events { legend.add(kind) }
      if lane.events.contains(where: { $0.kind.isEnd }) { legend.add(.lifetime) }
      if let demand = lane.demand {
        if !demand.asks.isEmpty { legend.add(.asked) }
        if !demand.sends.isEmpty { legend.add(.sending) }
        if demand.holdings?.contains(where: { $0.held > 0 }) ?? false { legend.add(.held) }
        if !demand.drops.isEmpty { legend.add(.dropped) }
      }
      if lane.highlighted { legend.add(lane.mark == ComparisonTable.ties ? .ties : .differs) }
    }
    return legend
  }

  /// The most elements of one instant in a lane.
  static func stackHeight(_ lane: Lane) -> Int {
    var counts: [Duration: Int] = [:]
    for (time, kind) in lane.events {
      if case .element = kind { counts[time, default: 0] += 1 }
    }
    return max(1, counts.values.max() ?? 1)
  }

  /// A lane's marbles as drawn: each element's text (whole, or cut to the room its neighbours
  /// leave), and the values cut, with their times, for the line under the lane.
  struct LaidOut {
    /// What each element shows inside its marble, by its place among the lane's events.
    var shown: [Int: (text: String, width: Int)] = [:]
    var cut: [(time: Duration, value: String)] = []

    /// The line(s) under the lane that write the cut values whole, wrapped to the picture.
    func valueLines(width: Int) -> [String] {
      guard !cut.isEmpty else { return [] }
      let room = max(40, (width - 2 * MarblePicture.margin - MarblePicture.labelWidth) * 10 / 68)
      var lines: [String] = []
      var line = "in full:"
      for (time, value) in cut {
        let item = " \(time.stampText) \(value)"
        if line.count + item.count > room, line.count > 8 {
          lines.append(line)
          line = "        "
        }
        line += item + " ·"
      }
      lines.append(String(line.dropLast(2)))
      return lines.map { $0.count > room ? String($0.prefix(room - 1)) + "…" : $0 }
    }
  }

  /// Lays out `lane`'s marbles on `scale`: a value takes the room its neighbours leave it (half a
  /// gap at least, more when the neighbour is narrow).
  static func laidOut(_ lane: Lane, scale: Scale) -> LaidOut {
    // What stands at each instant of the lane: the widest marble there, or an end's mark.
    var halves: [Duration: Int] = [:]
    for (time, kind) in lane.events {
      switch kind {
      case .element(let value): halves[time] = max(halves[time] ?? 0, marbleWidth(value.printed) / 2)
      case .finished, .failed, .cancelled: halves[time] = max(halves[time] ?? 0, 10)
      case .start, .asked, .sending: continue
      }
    }
    let times = halves.keys.sorted()
    var laid = LaidOut()
    for (index, (time, kind)) in lane.events.enumerated() {
      guard case .element(let value) = kind else { continue }
      let text = value.printed
      let wanted = marbleWidth(text) / 2
      var half = wanted
      let at = times.firstIndex(of: time) ?? 0
      let x = scale.x(time)
      for neighbour in [at - 1, at + 1] where times.indices.contains(neighbour) {
        let gap = abs(scale.x(times[neighbour]) - x)
        let theirs = min(halves[times[neighbour]] ?? 0, gap / 2)
        half = min(half, gap - theirs - 2)
      }
      half = max(11, half)
      if half >= wanted, textWidth(text, size: 10) + 12 <= widestMarble {
        laid.shown[index] = (text, 2 * wanted)
      } else {
        let fits = max(1, Int(Double(2 * half - 12) / 6.2) - 1)
        laid.shown[index] = (String(text.prefix(fits)) + "…", 2 * half)
        laid.cut.append((time, text))
      }
    }
    return laid
  }

  /// From times to x: whole pixels, with room between the closest distinct events of a lane for
  /// their marbles.
  struct Scale {
    let left = MarblePicture.margin + MarblePicture.labelWidth
    let pixelsPerSecond: Double
    let width: Int
    let end: Duration

    init(lanes: [Lane], end: Duration) {
      let span = max(end.inSecondsValue, 0.001)
      var closest = span
      var needed = 0.0
      for lane in lanes {
        var halves: [Duration: Int] = [:]
        for (time, kind) in lane.events {
          switch kind {
          case .element(let value):
            halves[time] = max(halves[time] ?? 0, MarblePicture.marbleWidth(value.printed) / 2)
          case .finished, .failed, .cancelled, .start: halves[time] = max(halves[time] ?? 0, 10)
          case .asked, .sending: continue
          }
        }
        let times = halves.keys.sorted()
        for (earlier, later) in zip(times, times.dropFirst()) {
          let gap = (later - earlier).inSecondsValue
          closest = min(closest, gap)
          needed = max(needed, Double((halves[earlier] ?? 0) + (halves[later] ?? 0) + 4) / gap)
        }
      }
      // 28 pixels between the closest events, room for neighbouring values, at least 640 and at
      // most 8,000 in all.
      pixelsPerSecond = min(max(640 / span, 28 / closest, needed), 8000 / span)
      width = Int((span * pixelsPerSecond).rounded())
      self.end = end
    }

    func x(_ time: Duration) -> Int {
      left + Int((time.inSecondsValue * pixelsPerSecond).rounded())
    }

    /// Ruler steps of 1, 2 or 5 times a power of ten, at least 70 pixels apart.
    var step: Duration {
      var unit = Duration.milliseconds(1)
      while true {
        for factor in [1, 2, 5] where (unit * factor).inSecondsValue * pixelsPerSecond >= 70 {
          return unit * factor
        }
        unit *= 10
      }
    }
  }

  /// The time axis along the top, with its labels and a faint line down the picture at each step.
  static func ruler(_ scale: Scale, end: Duration, top: Int, bottom: Int) -> [String] {
    let y = top + 20
    var out = [
      "<g class=\"ruler\" stroke=\"#888888\">",
      "<line x1=\"\(scale.x(.zero))\" y1=\"\(y)\" x2=\"\(scale.x(end))\" y2=\"\(y)\"/>",
    ]
    var time = Duration.zero
    while time <= end {
      let x = scale.x(time)
      out.append("<line x1=\"\(x)\" y1=\"\(y - 5)\" x2=\"\(x)\" y2=\"\(y + 5)\"/>")
      out.append("<line x1=\"\(x)\" y1=\"\(y + 5)\" x2=\"\(x)\" y2=\"\(bottom)\" stroke=\"#eeeeee\"/>")
      out.append(
        "<text x=\"\(x)\" y=\"\(y - 9)\" text-anchor=\"middle\" stroke=\"none\" fill=\"#555555\">"
          + "\(Markup.escaped(MarbleLanes.label(time), .picture))</text>")
      time += scale.step
    }
    out.append("</g>")
    return out
  }

  private func draw(_ lane: Lane, _ laid: LaidOut, top: Int, scale: Scale, rightEdge: Int) -> [String] {
    let y = top + 24
    let lifeY = top + 52
    var out = ["<g class=\"lane\">"]
    // Where tick 0 of an editable marble lane is: a tick after the job's start. A marble's steps
    // count from when its iterator was made, at the start for every lane not built by a flatMap
    // (chain's second input too: AA makes both iterators at once, and a step already past when it
    // is asked comes at once, later than its tick).
    let began = Duration.zero
    if let editable = lane.editable {
      let ticks = editable.tick > .zero ? Int((end - began).inSecondsValue / editable.tick.inSecondsValue) : 0
      out.append(
        editable.openingTag(
          x0: scale.x(began + editable.tick), tickWidth: editable.tick.inSecondsValue * scale.pixelsPerSecond,
          ticks: max(0, ticks)))
    }
    var elementsDrawn = 0
    var endDrawn = false
    let valueLines = laid.valueLines(width: rightEdge + Self.margin)
    if lane.highlighted {
      out.append(
        "<rect class=\"differs\" x=\"\(Self.margin - 6)\" y=\"\(top)\" width=\"\(rightEdge - Self.margin + 6)\" "
          + "height=\"\(Self.laneHeight - 4 + valueLines.count * Self.valuesLineHeight)\" fill=\"#fff3c4\"/>")
    }
    let label = (lane.mark.isEmpty ? "" : lane.mark + " ") + lane.label
    let shown = Self.shortened(label, depth: lane.depth)
    out.append(
      "<text class=\"label\" x=\"\(Self.margin + 14 * Self.indentLevels(lane.depth))\" y=\"\(y + 5)\"><title>\(Markup.escaped(lane.label, .picture))</title>"
        + "\(Markup.escaped(shown, .picture))</text>")
    if let side = lane.side {
      let cut = side.count > 38 ? String(side.prefix(37)) + "…" : side
      out.append(
        "<text class=\"side\" x=\"\(Self.margin)\" y=\"\(y + 21)\" font-size=\"11\" fill=\"#555555\">"
          + "<title>\(Markup.escaped(side, .picture))</title>\(Markup.escaped(cut, .picture))</text>")
    }
    let times = lane.events.map(\.time)
    let (from, to) = lane.short ? (times.min() ?? .zero, times.max() ?? .zero) : (Duration.zero, end)
    if let demand = lane.demand { out += bands(demand, y: y, scale: scale) }
    out.append(
      "<line x1=\"\(scale.x(from))\" y1=\"\(y)\" x2=\"\(scale.x(to))\" y2=\"\(y)\" stroke=\"#bbbbbb\"/>")
    // The marbles of each instant and the widest's half, so that an end of the same instant stands
    // just after them.
    var stacked: [Duration: (count: Int, half: Int)] = [:]
    var start: Duration? = lane.startsAtZero ? .zero : nil
    for (index, (time, kind)) in lane.events.enumerated() {
      let x = scale.x(time) + (kind.isEnd ? stacked[time].map { $0.half + 10 } ?? 0 : 0)
      let stamp = time.stampText
      switch kind {
      case .start:
        start = time
      case .element(let value):
        let level = stacked[time]?.count ?? 0
        let (text, width) = laid.shown[index] ?? (value.printed, Self.marbleWidth(value.printed))
        stacked[time] = (level + 1, max(stacked[time]?.half ?? 0, width / 2))
        let written =
          lane.editable?.marks.indices.contains(elementsDrawn) ?? false ? lane.editable?.marks[elementsDrawn] : nil
        elementsDrawn += 1
        out += Self.marble(
          text, width: width, x: x, y: y - level * Self.stackStep, title: "\(stamp) \(value.printed)", written: written)
      case .finished, .failed, .cancelled:
        let said = PictureMarks.Ending.said(kind)
        let mark = PictureMarks.Ending(kind).mark(x: x, y: y, title: "\(stamp) \(said)")
        if let editable = lane.editable, editable.ends(as: kind) {
          endDrawn = true
          out.append(editable.endTag + mark + "</g>")
        } else {
          out.append(mark)
        }
        out += lifetime(from: start, to: time, kind, y: lifeY, scale: scale, rightEdge: rightEdge)
      case .asked, .sending:
        continue  // drawn as the demand band (`demand`)
      }
    }
    for (line, text) in valueLines.enumerated() {
      out.append(
        "<text class=\"values\" x=\"\(scale.x(.zero))\" y=\"\(top + Self.laneHeight - 2 + line * Self.valuesLineHeight)\" "
          + "font-size=\"11\" fill=\"#1f4e79\">\(Markup.escaped(text, .picture))</text>")
    }
    if let editable = lane.editable {
      out += unsent(editable, elementsDrawn: elementsDrawn, endDrawn: endDrawn, began: began, y: y, scale: scale)
      out.append("</g>")
    }
    out.append("</g>")
    return out
  }

  /// What an editable lane's text holds that the run did not show (cancelled before, or cut by the
  /// horizon): its later values and its end, faint, where the text puts them, so that the page can
  /// still move them and writes the whole text back.
  private func unsent(
    _ editable: EditableMarble, elementsDrawn: Int, endDrawn: Bool, began: Duration, y: Int, scale: Scale
  ) -> [String] {
    func x(_ tick: Int) -> Int { scale.x(began + editable.tick * (tick + 1)) }
    var out: [String] = []
    for mark in editable.marks.dropFirst(elementsDrawn) {
      out += Self.marble(
        mark.value, width: Self.marbleWidth(mark.value), x: x(mark.tick), y: y,
        title: "in the text, not emitted: \(mark.value)", written: mark, emitted: false)
    }
    if !endDrawn {
      let kind: NodeEvent.Kind =
        switch editable.ending.kind {
        case .finished, .none: .finished
        case .failed: .failed("failed (^ in the diagram)")
        }
      let mark = PictureMarks.Ending(kind).mark(
        x: x(editable.ending.tick), y: y, title: "in the text, not reached: \(editable.ending.kind.rawValue)")
      out.append(editable.endTag + "<g opacity=\"0.4\">" + mark + "</g></g>")
    }
    return out
  }

  /// A lane's demand: a band on its line from each request to its answer (one answered at the
  /// instant it was made: a narrow mark taller than the band, standing out above and below its
  /// element), the same with `>` for an `into`'s wait, bars under the line of what a queue held,
  /// and an `x` there for each element its policy dropped.
  private func bands(_ demand: DemandBands, y: Int, scale: Scale) -> [String] {
    var out: [String] = []
    /// The band's rectangle's attributes, and its title.
    func span(_ span: Demand.Span) -> (rect: String, x: Int, width: Int, title: String) {
      let to = span.to ?? end
      let x = scale.x(span.from)
      let width = scale.x(to) - x
      let until = span.to.map { "\($0.stampText) (\((to - span.from).stampText.dropFirst()))" } ?? "the end, unanswered"
      let rect =
        width < 3
        ? "x=\"\(x - 1)\" y=\"\(y - 16)\" width=\"3\" height=\"32\""
        : "x=\"\(x)\" y=\"\(y - 7)\" width=\"\(width)\" height=\"14\""
      return (rect, x, width, "\(span.from.stampText) to \(until)")
    }
    for ask in demand.asks {
      let (rect, _, _, title) = span(ask)
      out.append(
        "<g class=\"asked\"><title>asked (next() outstanding) \(Markup.escaped(title, .picture))</title>"
          + "<rect \(rect) fill=\"#cfe7d2\" stroke=\"#5b8f63\" stroke-width=\"0.5\"/></g>")
    }
    for send in demand.sends {
      let (rect, x, width, title) = span(send)
      let channel = send.channel ?? ""
      out.append(
        "<g class=\"sending\"><title>sending to \(Markup.escaped(channel, .picture)), waiting for a consumer, \(Markup.escaped(title, .picture))"
          + "</title><rect \(rect) fill=\"#f7dcb4\" stroke=\"#b7791f\" stroke-width=\"0.5\"/>"
          + (width >= 40
            ? "<text x=\"\(x + 14)\" y=\"\(y - 9)\" font-size=\"10\" fill=\"#7a4d0b\">&gt; \(Markup.escaped(channel, .picture))</text>"
            : "")
          + "</g>")
    }
    if let holdings = demand.holdings {
      for (index, holding) in holdings.enumerated() where holding.held > 0 {
        let to = index + 1 < holdings.count ? holdings[index + 1].time : end
        let x = scale.x(holding.time)
        let width = max(2, scale.x(to) - x)
        let height = 3 * min(holding.held, 4)
        out.append(
          "<g class=\"held\"><title>held \(holding.held) from \(holding.time.stampText) to \(to.stampText)</title>"
            + "<rect x=\"\(x)\" y=\"\(y + 23 - height)\" width=\"\(width)\" height=\"\(height)\" fill=\"#9db7d5\"/>"
            + (width >= 8
              ? "<text x=\"\(x + 2)\" y=\"\(y + 22 - height)\" font-size=\"9\" fill=\"#1f4e79\">\(holding.held)</text>"
              : "")
            + "</g>")
      }
    }
    for (time, value) in demand.drops {
      let x = scale.x(time)
      out.append(
        "<g class=\"dropped\" stroke=\"#c0392b\" stroke-width=\"2\"><title>\(time.stampText) \(Markup.escaped(value, .picture)) "
          + "dropped by the buffer's policy</title><line x1=\"\(x - 4)\" y1=\"\(y + 12)\" x2=\"\(x + 4)\" "
          + "y2=\"\(y + 20)\"/><line x1=\"\(x - 4)\" y1=\"\(y + 20)\" x2=\"\(x + 4)\" y2=\"\(y + 12)\"/></g>")
    }
    return out
  }

  /// An element: a marble (round for a short value, as wide as a longer one) with `text` inside.
  /// With `written` (`pipesh --page`'s editable lane), its tick and value as the text writes them;
  /// not `emitted`, drawn faint.
  private static func marble(
    _ text: String, width: Int, x: Int, y: Int, title: String, written: EditableMarble.Mark? = nil,
    emitted: Bool = true
  ) -> [String] {
    let data =
      written.map {
        " data-tick=\"\($0.tick)\" data-value=\"\(Markup.escaped($0.value, .picture))\""
          + (emitted ? "" : " data-emitted=\"false\" opacity=\"0.4\"")
      } ?? ""
    return [
      "<g class=\"marble\"\(data)><title>\(Markup.escaped(title, .picture))</title>"
        + "<rect x=\"\(x - width / 2)\" y=\"\(y - 11)\" width=\"\(width)\" height=\"22\" rx=\"11\" fill=\"#dbe9f6\" "
        + "stroke=\"#1f4e79\" stroke-width=\"1.5\"/>"
        + "<text x=\"\(x)\" y=\"\(y + 4)\" text-anchor=\"middle\" font-size=\"10\">\(Markup.escaped(text, .picture))</text></g>"
    ]
  }

  /// A node's lifetime: a bar from its start to its end, drawn by how it ended, and how it ended.
  private func lifetime(
    from start: Duration?, to end: Duration, _ kind: NodeEvent.Kind, y: Int, scale: Scale, rightEdge: Int
  ) -> [String] {
    // A node that never started has no bar: only how it ended.
    let said = PictureMarks.Ending.said(kind)
    let text = start == nil ? "never started; " + said : said
    let from = scale.x(start ?? end)
    let to = start == nil ? from : max(scale.x(end), from + 2)
    let nearEdge = to + 8 + Self.textWidth(text, size: 11) > rightEdge
    let anchor = nearEdge ? "end\" x=\"\(to)\" y=\"\(y + 16)" : "start\" x=\"\(to + 8)\" y=\"\(y + 4)"
    return [
      "<g class=\"lifetime\"><title>\(start.map { "\($0.stampText) to " } ?? "")\(end.stampText): "
        + "\(Markup.escaped(text, .picture))</title>"
        + PictureMarks.Ending(kind).bar(from: from, to: to, y: y, thickness: 4)
        + "<line x1=\"\(from)\" y1=\"\(y - 6)\" x2=\"\(from)\" y2=\"\(y + 6)\" stroke=\"#555555\" stroke-width=\"2\"/>"
        + "<text text-anchor=\"\(anchor)\" font-size=\"11\" fill=\"#333333\">\(Markup.escaped(text, .picture))</text></g>"
    ]
  }

}

extension NodeEvent.Kind {
  /// Whether the event ends the node: finished, failed or cancelled.
  var isEnd: Bool {
    switch self {
    case .start, .element, .asked, .sending: false
    case .finished, .failed, .cancelled: true
    }
  }
}
