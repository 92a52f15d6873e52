import Markup
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
package struct MarblePicture {
  /// One node's lane.
  package struct Lane {
    package let label: String
    package let events: [(time: Duration, kind: NodeEventKind)]
    /// A second, smaller line under the label (`compare`: which side, and the counterpart).
    var side: String?
    /// `compare`'s mark before the label: `≠` or `≈`.
    var mark: String = ""
    /// Drawn on a tinted band (`compare`: a row that differs).
    var highlighted: Bool = false
    /// How far in the label stands: a pipeline a `flatMap` built, under it.
    package var depth: Int = 0
    /// Whether the lane's life begins at 0 without a start event (`compare`'s Combine lanes: every
    /// publisher is subscribed to when the run starts). Otherwise a lane with no start never
    /// started, and gets no lifetime bar.
    var startsAtZero: Bool = false
    /// Whether the lane's line runs only while the node lived (a `flatMap`'s pipeline), not across
    /// the whole axis.
    var short: Bool = false
    /// The node drawn (a run's, not a saved trace's).
    package var node: NodeSnapshot?
    /// `draw … demand: true`: its requests, sends, holdings and drops, drawn on the lane.
    package var demand: DemandBands?
    /// `pipesh --page`: a `marble "…"` lane the page can edit, annotated (`EditableMarble`).
    package var editable: EditableMarble?

    /// An editable lane: the time of its text's end (or last value), at its tick.
    package var textReach: Duration? {
      editable.map { $0.tick * (max($0.ending.tick, $0.marks.last?.tick ?? 0) + 1) }
    }

    package init(
      label: String, events: [(time: Duration, kind: NodeEventKind)], side: String? = nil, mark: String = "",
      highlighted: Bool = false, depth: Int = 0, startsAtZero: Bool = false, short: Bool = false,
      node: NodeSnapshot? = nil, demand: DemandBands? = nil, editable: EditableMarble? = nil
    ) {
      self.label = label
      self.events = events
      self.side = side
      self.mark = mark
      self.highlighted = highlighted
      self.depth = depth
      self.startsAtZero = startsAtZero
      self.short = short
      self.node = node
      self.demand = demand
      self.editable = editable
    }
  }

  /// What `draw … demand: true` adds to a lane: a band where a request was outstanding, a band with
  /// `>` where an `into` waited for a consumer, bars of what a queue held, and `x` for each element
  /// its policy dropped.
  package struct DemandBands {
    let asks: [Demand.Span]
    let sends: [Demand.Span]
    let holdings: [ElementFates.Holding]?
    let drops: [(time: Duration, value: String)]

    package init(_ demand: Demand, holdings: [ElementFates.Holding]?, drops: [(time: Duration, value: String)]) {
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
  package var svg: String {
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

  package init(
    lanes: [Lane], end: Duration, heading: PictureMarks.Heading
  ) {
    self.lanes = lanes
    self.end = end
    self.heading = heading
  }
}

package extension NodeEventKind {
  /// Whether the event ends the node: finished, failed or cancelled.
  var isEnd: Bool {
    switch self {
    case .start, .element, .asked, .sending: false
    case .finished, .failed, .cancelled: true
    }
  }
}
