import PipeRuntime
import PipeSema
import PipeSession

/// `trace … to: "F.svg"`: the lifetimes of a job's nodes as a chart, the picture of who cancels
/// whom. One row per node, tree-indented as `inspect` draws it (a node, then its inputs and the
/// pipelines a `flatMap` built, one level in); a bar from the node's start to its end, drawn by how
/// it ended (finished: solid dark; failed: red, ending in a cross; cancelled: dashed brown, ending
/// in a slashed circle), with the reason written after it; a tick on the bar for every element,
/// its value and time as the tick's title.
struct LifetimeChart {
  struct Row {
    let label: String
    let depth: Int
    let events: [(time: Duration, kind: NodeEvent.Kind)]

    /// When its iteration started; nil when it never did.
    var start: Duration? {
      events.first { if case .start = $0.kind { true } else { false } }?.time
    }

    /// The node's end, if it ended.
    var ending: (time: Duration, kind: NodeEvent.Kind)? {
      events.last { $0.kind.isEnd }
    }

    /// How a bar ends: its mark, and its class in the picture.
    enum BarEnd: String {
      case failed, cancelled, finished, running
    }

    /// How the bar is drawn, and what is written after it.
    var look: (kind: BarEnd, colour: String, dash: String, said: String) {
      switch ending?.kind {
      case .failed(let reason)?: (.failed, "#b03a2e", "", "failed: \(reason)")
      case .cancelled(let reason)?:
        (.cancelled, "#7d5a00", " stroke-dasharray=\"6 3\"", reason.isEmpty ? "cancelled" : "cancelled (\(reason))")
      case .finished?: (.finished, "#333333", "", "finished")
      case .start?, .element?, .asked?, .sending?, nil:
        (.running, "#999999", " stroke-dasharray=\"2 2\"", "still running")
      }
    }

    /// The row as text, for the page: indented as in the chart, how it ended after it.
    var text: String { String(repeating: "  ", count: depth) + label + "  " + look.said }
  }

  let rows: [Row]
  let end: Duration

  static let rowHeight = 34
  static let indent = 14

  /// The rows of `nodes` in `inspect`'s order: each node, then its inputs and children indented.
  static func rows(
    _ nodes: [Node], depth: Int = 0, events: (Node) -> [(time: Duration, kind: NodeEvent.Kind)]
  ) -> [Row] {
    nodes.flatMap { node in
      [Row(label: node.text, depth: depth, events: events(node))]
        + (node.inputs + (node.children?.all ?? [])).flatMap { rows($0, depth: depth + 1, events: events) }
    }
  }

  var svg: String {
    let lanes = rows.map { MarblePicture.Lane(label: $0.label, events: $0.events) }
    let scale = MarblePicture.Scale(lanes: lanes, end: end)
    let margin = MarblePicture.margin
    let top = margin + MarblePicture.rulerHeight
    // Room after the bars for the longest reason, at about 7 pixels a character.
    let reasons = rows.map(\.look.said.count).max() ?? 0
    let width = MarblePicture.labelWidth + scale.width + 2 * margin + 30 + 7 * reasons
    let height = top + rows.count * Self.rowHeight + margin
    var out = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        + "viewBox=\"0 0 \(width) \(height)\" font-family=\"\(MarblePicture.fontFamily)\" font-size=\"13\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
    ]
    out += MarblePicture.ruler(scale, end: end, bottom: height - margin)
    for (index, row) in rows.enumerated() {
      out += draw(row, y: top + index * Self.rowHeight + Self.rowHeight / 2, scale: scale)
    }
    out.append("</svg>")
    return out.joined(separator: "\n") + "\n"
  }

  private func draw(_ row: Row, y: Int, scale: MarblePicture.Scale) -> [String] {
    let escaped = MarblePicture.escaped
    let room = 32 - 2 * row.depth
    let shown = row.label.count > room ? String(row.label.prefix(room - 1)) + "…" : row.label
    var out = [
      "<g class=\"node\">",
      "<text class=\"label\" x=\"\(MarblePicture.margin + row.depth * Self.indent)\" y=\"\(y + 5)\">"
        + "<title>\(escaped(row.label))</title>\(escaped(shown))</text>",
    ]
    let ending = row.ending
    let stop = ending?.time ?? end
    // A node that never started has no bar: only how it ended.
    let from = scale.x(row.start ?? stop)
    let to = row.start == nil ? from : max(scale.x(stop), from + 2)
    let (kind, colour, dash, said) = row.look
    let span = (row.start.map { "\($0.stampText) to " } ?? "never started; ") + stop.stampText
    out.append(
      "<g class=\"bar \(kind.rawValue)\"><title>\(span): \(escaped(said))</title>"
        + "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y)\" stroke=\"\(colour)\" stroke-width=\"8\"\(dash)/>"
        + endMark(kind, x: to, y: y, colour: colour) + "</g>")
    for (time, kind) in row.events {
      guard case .element(let value) = kind else { continue }
      let x = scale.x(time)
      out.append(
        "<g class=\"element\"><title>\(time.stampText) \(escaped(value.printed))</title>"
          + "<line x1=\"\(x)\" y1=\"\(y - 9)\" x2=\"\(x)\" y2=\"\(y + 9)\" stroke=\"#1f4e79\" stroke-width=\"2\"/></g>")
    }
    out.append(
      "<text class=\"reason\" x=\"\(to + 14)\" y=\"\(y + 4)\" font-size=\"11\" fill=\"#333333\">\(escaped(said))</text>"
    )
    out.append("</g>")
    return out
  }

  private func endMark(_ kind: Row.BarEnd, x: Int, y: Int, colour: String) -> String {
    switch kind {
    case .failed:
      "<line x1=\"\(x - 6)\" y1=\"\(y - 6)\" x2=\"\(x + 6)\" y2=\"\(y + 6)\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
        + "<line x1=\"\(x - 6)\" y1=\"\(y + 6)\" x2=\"\(x + 6)\" y2=\"\(y - 6)\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
    case .cancelled:
      "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"7\" fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
        + "<line x1=\"\(x - 5)\" y1=\"\(y + 5)\" x2=\"\(x + 5)\" y2=\"\(y - 5)\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
    case .finished, .running:
      "<line x1=\"\(x)\" y1=\"\(y - 10)\" x2=\"\(x)\" y2=\"\(y + 10)\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
    }
  }
}
