import Markup
import PipeSema
import PipeSession
import PipeSyntax

/// One lane drawn: its marbles, ends and lifetime, what was sent and not taken, demand's bands.
extension MarblePicture {
  func draw(_ lane: Lane, _ laid: LaidOut, top: Int, scale: Scale, rightEdge: Int) -> [String] {
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
      let kind: NodeEventKind =
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
    from start: Duration?, to end: Duration, _ kind: NodeEventKind, y: Int, scale: Scale, rightEdge: Int
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
