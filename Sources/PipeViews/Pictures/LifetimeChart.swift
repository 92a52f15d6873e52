import Markup
import PipeSema
import PipeSession

/// `trace … to: "F.svg"`: the lifetimes of a job's nodes as a chart, the picture of who cancels
/// whom. A title (the command, its job, its clock, where the axis starts: at the job's start, so a
/// later job of a session is not drawn far to the right of an empty axis); one row per node,
/// tree-indented as `inspect` draws it (a node, then its inputs and the pipelines a `flatMap`
/// built, one level in); a bar from the node's start to its end, drawn and ended by how it ended as
/// every picture draws an end (`PictureMarks.Ending`), with the reason written after it; a tick on
/// the bar for every element, its value above it where it fits, its value and time as the tick's
/// title; a legend of the marks used.
package struct LifetimeChart {
  package struct Row {
    package let label: String
    package let depth: Int
    package let events: [(time: Duration, kind: NodeEventKind)]

    /// When its iteration started; nil when it never did.
    package var start: Duration? {
      events.first { if case .start = $0.kind { true } else { false } }?.time
    }

    /// The node's end, if it ended.
    package var ending: (time: Duration, kind: NodeEventKind)? {
      events.last { $0.kind.isEnd }
    }

    /// How the node ended, and what is written after its bar.
    var look: (ending: PictureMarks.Ending, said: String) {
      (PictureMarks.Ending(ending?.kind), PictureMarks.Ending.said(ending?.kind))
    }
  }

  let rows: [Row]
  let end: Duration
  let heading: PictureMarks.Heading
  /// Where the job started on the session's clock: an element's title says its time there too, as
  /// trace's lines do.
  var origin: Duration = .zero

  static let rowHeight = 40
  static let indent = 14

  /// The rows of `nodes` in `inspect`'s order: each node, then its inputs and children indented.
  package static func rows(
    _ nodes: [NodeSnapshot], depth: Int = 0, events: (NodeSnapshot) -> [(time: Duration, kind: NodeEventKind)]
  ) -> [Row] {
    nodes.flatMap { node in
      [Row(label: node.text, depth: depth, events: events(node))]
        + (node.inputs + node.children).flatMap { rows($0, depth: depth + 1, events: events) }
    }
  }

  /// The marks the chart uses, for its legend.
  var legend: PictureMarks.Legend {
    var legend = PictureMarks.Legend()
    for row in rows {
      for (_, kind) in row.events { legend.add(kind, element: .tick) }
      legend.add(row.ending == nil ? .running : .lifetime)
    }
    return legend
  }

  package var svg: String {
    let lanes = rows.map { MarblePicture.Lane(label: $0.label, events: $0.events) }
    let scale = MarblePicture.Scale(lanes: lanes, end: end)
    let margin = MarblePicture.margin
    // Room after the bars for the longest reason.
    let reasons = rows.map { MarblePicture.textWidth($0.look.said, size: 11) }.max() ?? 0
    let width = max(MarblePicture.labelWidth + scale.width + 2 * margin + 40 + reasons, 720)
    let top = margin + heading.height(width: width) + MarblePicture.rulerHeight
    let bottom = top + rows.count * Self.rowHeight
    let legend = self.legend.svg(top: bottom + 4, width: width)
    let height = bottom + 4 + legend.height + margin
    var out = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        + "viewBox=\"0 0 \(width) \(height)\" font-family=\"\(MarblePicture.fontFamily)\" font-size=\"13\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
    ]
    out += heading.svg(width: width)
    out += MarblePicture.ruler(scale, end: end, top: margin + heading.height(width: width), bottom: bottom)
    for (index, row) in rows.enumerated() {
      out += draw(row, y: top + index * Self.rowHeight + Self.rowHeight / 2 + 4, scale: scale)
    }
    out += legend.lines
    out.append("</svg>")
    return out.joined(separator: "\n") + "\n"
  }

  /// ` (+T on the session's clock)` for a job that did not start at the session's 0.
  private func session(_ time: Duration) -> String {
    origin == .zero ? "" : " (\((time + origin).stampText) on the session's clock)"
  }

  private func draw(_ row: Row, y: Int, scale: MarblePicture.Scale) -> [String] {
    let shown = MarblePicture.shortened(row.label, depth: row.depth)
    var out = [
      "<g class=\"node\">",
      "<text class=\"label\" x=\"\(MarblePicture.margin + MarblePicture.indentLevels(row.depth) * Self.indent)\" y=\"\(y + 5)\">"
        + "<title>\(Markup.escaped(row.label, .picture))</title>\(Markup.escaped(shown, .picture))</text>",
    ]
    let ending = row.ending
    let stop = ending?.time ?? end
    // A node that never started has no bar: only how it ended.
    let from = scale.x(row.start ?? stop)
    let to = row.start == nil ? from : max(scale.x(stop), from + 2)
    let (look, said) = row.look
    let span = (row.start.map { "\($0.stampText) to " } ?? "never started; ") + stop.stampText
    out.append(
      "<g class=\"bar \(look.rawValue)\"><title>\(span): \(Markup.escaped(said, .picture))</title>"
        + look.bar(from: from, to: to, y: y, thickness: 8) + "</g>")
    // An end at the instant of an element stands just after its tick, not over it.
    let after = row.events.contains { if case .element = $0.kind { $0.time == stop } else { false } }
    let markX = after ? to + 10 : to
    out.append(look.mark(x: markX, y: y, title: "\(stop.stampText) \(said)"))
    // Each element's value above its tick, cut to the room its neighbours leave it.
    let elements = row.events.compactMap { time, kind -> (time: Duration, value: String)? in
      if case .element(let value) = kind { (time, value.printed) } else { nil }
    }
    let xs = elements.map { scale.x($0.time) }
    for (index, (time, value)) in elements.enumerated() {
      let x = xs[index]
      let gaps = [index - 1, index + 1].filter(xs.indices.contains).map { abs(xs[$0] - x) }.filter { $0 > 0 }
      let half = gaps.min().map { $0 / 2 - 2 } ?? MarblePicture.widestMarble / 2
      let fits = max(1, Int(Double(2 * half) / 6.2))
      let text = value.count <= fits ? value : String(value.prefix(max(1, fits - 1))) + "…"
      let sameInstantAsBefore = index > 0 && xs[index - 1] == x
      out.append(
        "<g class=\"element\"><title>\(time.stampText) \(Markup.escaped(value, .picture))\(session(time))</title>"
          + "<line x1=\"\(x)\" y1=\"\(y - 9)\" x2=\"\(x)\" y2=\"\(y + 9)\" stroke=\"#1f4e79\" stroke-width=\"2\"/>"
          + (sameInstantAsBefore
            ? ""
            : "<text x=\"\(x)\" y=\"\(y - 12)\" text-anchor=\"middle\" font-size=\"10\" fill=\"#1f4e79\">"
              + "\(Markup.escaped(text, .picture))</text>")
          + "</g>")
    }
    out.append(
      "<text class=\"reason\" x=\"\(markX + 14)\" y=\"\(y + 4)\" font-size=\"11\" fill=\"#333333\">\(Markup.escaped(said, .picture))</text>"
    )
    out.append("</g>")
    return out
  }

  package init(
    rows: [Row], end: Duration, heading: PictureMarks.Heading, origin: Duration = .zero
  ) {
    self.rows = rows
    self.end = end
    self.heading = heading
    self.origin = origin
  }
}
