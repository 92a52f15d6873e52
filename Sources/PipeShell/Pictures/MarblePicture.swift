import PipeRuntime
import PipeSema
import PipeSession
import PipeSyntax

/// `draw … to: "F.svg"`: the marble diagram as an SVG picture, on a true time axis.
///
/// One lane per node, labelled with the stage's text. Elements are circles at their exact time
/// with the value inside (cut to three characters; the whole value, and the time, in the circle's
/// `<title>`, which a browser shows on hover); elements of the same instant stack upward. The end
/// of a node's output is a bar (finished), a cross (failed) or a slashed circle (cancelled), each
/// with its reason as a title. Under each lane, the node's lifetime: a bar from when its iteration
/// started to when it ended, with how it ended written at its end. Shapes carry the meaning, not
/// colours alone; coordinates are whole pixels worked out from the virtual times, so a picture is
/// the same bytes in every run and build.
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

  static let labelWidth = 250
  static let margin = 20
  static let laneHeight = 70
  static let rulerHeight = 40
  static let stackStep = 22
  static let fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

  /// The picture as a standalone SVG document.
  var svg: String {
    let scale = Scale(lanes: lanes, end: end)
    let stacks = lanes.map(Self.stackHeight)
    let tops = stacks.reduce(into: [Self.margin + Self.rulerHeight]) { tops, stack in
      tops.append(tops[tops.count - 1] + Self.laneHeight + (stack - 1) * Self.stackStep)
    }
    let width = Self.labelWidth + scale.width + 2 * Self.margin + 120
    let legend = lanes.contains { $0.demand != nil }
    let height = (tops.last ?? 0) + Self.margin + (legend ? Self.legendHeight : 0)
    var out = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        + "viewBox=\"0 0 \(width) \(height)\" font-family=\"\(Self.fontFamily)\" font-size=\"13\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
    ]
    out += Self.ruler(scale, end: end, bottom: height - Self.margin - (legend ? Self.legendHeight : 0))
    for (index, lane) in lanes.enumerated() {
      let top = tops[index] + (stacks[index] - 1) * Self.stackStep
      out += draw(lane, top: top, scale: scale, rightEdge: width - Self.margin)
    }
    if legend { out += Self.demandLegend(y: height - Self.margin - 6) }
    out.append("</svg>")
    return out.joined(separator: "\n") + "\n"
  }

  /// The most elements of one instant in a lane.
  static func stackHeight(_ lane: Lane) -> Int {
    var counts: [Duration: Int] = [:]
    for (time, kind) in lane.events {
      if case .element = kind { counts[time, default: 0] += 1 }
    }
    return max(1, counts.values.max() ?? 1)
  }

  /// From times to x: whole pixels, with room between the closest distinct events of a lane.
  struct Scale {
    let left = MarblePicture.margin + MarblePicture.labelWidth
    let pixelsPerSecond: Double
    let width: Int
    let end: Duration

    init(lanes: [Lane], end: Duration) {
      let span = max(end.inSecondsValue, 0.001)
      var closest = span
      for lane in lanes {
        let times = Set(lane.events.map(\.time)).sorted()
        for (earlier, later) in zip(times, times.dropFirst()) {
          closest = min(closest, (later - earlier).inSecondsValue)
        }
      }
      // 28 pixels between the closest events, at least 640 and at most 8,000 in all.
      pixelsPerSecond = min(max(640 / span, 28 / closest), 8000 / span)
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
  static func ruler(_ scale: Scale, end: Duration, bottom: Int) -> [String] {
    let y = Self.margin + 20
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
          + "\(escaped(MarbleLanes.label(time)))</text>")
      time += scale.step
    }
    out.append("</g>")
    return out
  }

  private func draw(_ lane: Lane, top: Int, scale: Scale, rightEdge: Int) -> [String] {
    let y = top + 24
    let lifeY = top + 52
    var out = ["<g class=\"lane\">"]
    if lane.highlighted {
      out.append(
        "<rect class=\"differs\" x=\"\(Self.margin - 6)\" y=\"\(top)\" width=\"\(rightEdge - Self.margin + 6)\" "
          + "height=\"\(Self.laneHeight - 4)\" fill=\"#fff3c4\"/>")
    }
    let label = (lane.mark.isEmpty ? "" : lane.mark + " ") + lane.label
    let room = 32 - 2 * lane.depth
    let shown = label.count > room ? String(label.prefix(room - 1)) + "…" : label
    out.append(
      "<text class=\"label\" x=\"\(Self.margin + 14 * lane.depth)\" y=\"\(y + 5)\"><title>\(Self.escaped(lane.label))</title>"
        + "\(Self.escaped(shown))</text>")
    if let side = lane.side {
      let cut = side.count > 38 ? String(side.prefix(37)) + "…" : side
      out.append(
        "<text class=\"side\" x=\"\(Self.margin)\" y=\"\(y + 21)\" font-size=\"11\" fill=\"#555555\">"
          + "<title>\(Self.escaped(side))</title>\(Self.escaped(cut))</text>")
    }
    let times = lane.events.map(\.time)
    let (from, to) = lane.short ? (times.min() ?? .zero, times.max() ?? .zero) : (Duration.zero, end)
    if let demand = lane.demand { out += bands(demand, y: y, scale: scale) }
    out.append(
      "<line x1=\"\(scale.x(from))\" y1=\"\(y)\" x2=\"\(scale.x(to))\" y2=\"\(y)\" stroke=\"#bbbbbb\"/>")
    var stacked: [Duration: Int] = [:]
    var start: Duration? = lane.startsAtZero ? .zero : nil
    for (time, kind) in lane.events {
      // An end at the instant of an element stands just after it, not over it.
      let x = scale.x(time) + (kind.isEnd && stacked[time] != nil ? 20 : 0)
      let stamp = time.stampText
      switch kind {
      case .start:
        start = time
      case .element(let value):
        let level = stacked[time, default: 0]
        stacked[time] = level + 1
        out += Self.marble(value.printed, x: x, y: y - level * Self.stackStep, title: "\(stamp) \(value.printed)")
      case .finished:
        out.append(
          "<g class=\"finished\"><title>\(stamp) finished</title><line x1=\"\(x)\" y1=\"\(y - 14)\" x2=\"\(x)\" "
            + "y2=\"\(y + 14)\" stroke=\"#222222\" stroke-width=\"3\"/></g>")
        out += lifetime(from: start, to: time, y: lifeY, text: "finished", scale: scale, rightEdge: rightEdge)
      case .failed(let reason):
        out.append(
          "<g class=\"failed\" stroke=\"#b03a2e\" stroke-width=\"3\"><title>\(stamp) failed: \(Self.escaped(reason))"
            + "</title><line x1=\"\(x - 8)\" y1=\"\(y - 8)\" x2=\"\(x + 8)\" y2=\"\(y + 8)\"/>"
            + "<line x1=\"\(x - 8)\" y1=\"\(y + 8)\" x2=\"\(x + 8)\" y2=\"\(y - 8)\"/></g>")
        out += lifetime(from: start, to: time, y: lifeY, text: "failed: \(reason)", scale: scale, rightEdge: rightEdge)
      case .cancelled(let reason):
        let said = reason.isEmpty ? "cancelled" : "cancelled (\(reason))"
        out.append(
          "<g class=\"cancelled\" stroke=\"#7d5a00\" stroke-width=\"2\" fill=\"none\"><title>\(stamp) "
            + "\(Self.escaped(said))</title><circle cx=\"\(x)\" cy=\"\(y)\" r=\"8\"/>"
            + "<line x1=\"\(x - 6)\" y1=\"\(y + 6)\" x2=\"\(x + 6)\" y2=\"\(y - 6)\"/></g>")
        out += lifetime(from: start, to: time, y: lifeY, text: said, scale: scale, rightEdge: rightEdge)
      case .asked, .sending:
        continue  // drawn as the demand band (`demand`)
      }
    }
    out.append("</g>")
    return out
  }

  static let legendHeight = 24

  /// What the demand marks mean, along the bottom.
  static func demandLegend(y: Int) -> [String] {
    [
      "<g class=\"legend\" font-size=\"11\" fill=\"#333333\">"
        + "<rect x=\"\(margin)\" y=\"\(y - 9)\" width=\"24\" height=\"12\" fill=\"#cfe7d2\" stroke=\"#5b8f63\"/>"
        + "<text x=\"\(margin + 30)\" y=\"\(y + 1)\">asked: its consumer's next() outstanding</text>"
        + "<rect x=\"\(margin + 280)\" y=\"\(y - 9)\" width=\"24\" height=\"12\" fill=\"#f7dcb4\" stroke=\"#b7791f\"/>"
        + "<text x=\"\(margin + 284)\" y=\"\(y + 1)\" font-weight=\"bold\">&gt;</text>"
        + "<text x=\"\(margin + 310)\" y=\"\(y + 1)\">into waiting for a consumer</text>"
        + "<rect x=\"\(margin + 500)\" y=\"\(y - 6)\" width=\"24\" height=\"6\" fill=\"#9db7d5\"/>"
        + "<text x=\"\(margin + 530)\" y=\"\(y + 1)\">held (count)</text>"
        + "<g stroke=\"#c0392b\" stroke-width=\"2\"><line x1=\"\(margin + 616)\" y1=\"\(y - 8)\" x2=\"\(margin + 624)\" "
        + "y2=\"\(y)\"/><line x1=\"\(margin + 616)\" y1=\"\(y)\" x2=\"\(margin + 624)\" y2=\"\(y - 8)\"/></g>"
        + "<text x=\"\(margin + 632)\" y=\"\(y + 1)\">dropped by the buffer's policy</text></g>"
    ]
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
        "<g class=\"asked\"><title>asked (next() outstanding) \(Self.escaped(title))</title>"
          + "<rect \(rect) fill=\"#cfe7d2\" stroke=\"#5b8f63\" stroke-width=\"0.5\"/></g>")
    }
    for send in demand.sends {
      let (rect, x, width, title) = span(send)
      let channel = send.channel ?? ""
      out.append(
        "<g class=\"sending\"><title>sending to \(Self.escaped(channel)), waiting for a consumer, \(Self.escaped(title))"
          + "</title><rect \(rect) fill=\"#f7dcb4\" stroke=\"#b7791f\" stroke-width=\"0.5\"/>"
          + (width >= 40
            ? "<text x=\"\(x + 14)\" y=\"\(y - 9)\" font-size=\"10\" fill=\"#7a4d0b\">&gt; \(Self.escaped(channel))</text>"
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
        "<g class=\"dropped\" stroke=\"#c0392b\" stroke-width=\"2\"><title>\(time.stampText) \(Self.escaped(value)) "
          + "dropped by the buffer's policy</title><line x1=\"\(x - 4)\" y1=\"\(y + 12)\" x2=\"\(x + 4)\" "
          + "y2=\"\(y + 20)\"/><line x1=\"\(x - 4)\" y1=\"\(y + 20)\" x2=\"\(x + 4)\" y2=\"\(y + 12)\"/></g>")
    }
    return out
  }

  /// An element: a circle with the value (cut to three characters) inside.
  private static func marble(_ value: String, x: Int, y: Int, title: String) -> [String] {
    let inside = value.count > 3 ? String(value.prefix(2)) + "…" : value
    return [
      "<g class=\"marble\"><title>\(escaped(title))</title>"
        + "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"11\" fill=\"#dbe9f6\" stroke=\"#1f4e79\" stroke-width=\"1.5\"/>"
        + "<text x=\"\(x)\" y=\"\(y + 4)\" text-anchor=\"middle\" font-size=\"10\">\(escaped(inside))</text></g>"
    ]
  }

  /// A node's lifetime: a bar from its start to its end, and how it ended.
  private func lifetime(
    from start: Duration?, to end: Duration, y: Int, text: String, scale: Scale, rightEdge: Int
  ) -> [String] {
    // A node that never started has no bar: only how it ended.
    let text = start == nil ? "never started; " + text : text
    let from = scale.x(start ?? end)
    let to = start == nil ? from : max(scale.x(end), from + 2)
    let nearEdge = to + 8 + 7 * text.count > rightEdge
    let anchor = nearEdge ? "end\" x=\"\(to)\" y=\"\(y + 16)" : "start\" x=\"\(to + 8)\" y=\"\(y + 4)"
    return [
      "<g class=\"lifetime\"><title>\(start.map { "\($0.stampText) to " } ?? "")\(end.stampText): "
        + "\(Self.escaped(text))</title>"
        + "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y)\" stroke=\"#555555\" stroke-width=\"4\"/>"
        + "<line x1=\"\(from)\" y1=\"\(y - 6)\" x2=\"\(from)\" y2=\"\(y + 6)\" stroke=\"#555555\" stroke-width=\"2\"/>"
        + "<text text-anchor=\"\(anchor)\" font-size=\"11\" fill=\"#333333\">\(Self.escaped(text))</text></g>"
    ]
  }

  /// Text as XML character data or an attribute value.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default:
        // Control characters cannot stand in XML 1.0: written as diagnostics write them.
        if character.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) {
          out += DiagnosticFormatter.visible(String(character))
        } else {
          out.append(character)
        }
      }
    }
    return out
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
