import Markup
import PipeSema
import PipeSession

/// What every picture (`draw`, `trace` and `compare … to:`) shares, so that a mark means one thing
/// in all of them: the title, how a node's end is drawn (finished: a dark bar; failed: a red cross;
/// cancelled: a brown slashed circle, its reason beside it), how a lifetime bar is drawn by how it
/// ended, and a legend of the marks the picture used, and only those.
package enum PictureMarks {
  /// How a node ended, or that it had not.
  package enum Ending: String {
    case finished, failed, cancelled, running

    init(_ kind: NodeEventKind?) {
      switch kind {
      case .finished?: self = .finished
      case .failed?: self = .failed
      case .cancelled?: self = .cancelled
      case .start?, .element?, .asked?, .sending?, nil: self = .running
      }
    }

    var colour: String {
      switch self {
      case .finished: "#333333"
      case .failed: "#b03a2e"
      case .cancelled: "#7d5a00"
      case .running: "#999999"
      }
    }

    /// The bar's dash: solid for an end the node came to by itself or by failing, dashed for a
    /// cancellation, dotted while it still runs.
    var dash: String {
      switch self {
      case .finished, .failed: ""
      case .cancelled: " stroke-dasharray=\"6 3\""
      case .running: " stroke-dasharray=\"2 2\""
      }
    }

    /// The mark at the end: `class` is the ending's name, `title` what a browser shows on hover.
    func mark(x: Int, y: Int, title: String) -> String {
      "<g class=\"\(rawValue)\"><title>\(Markup.escaped(title, .picture))</title>\(shape(x: x, y: y))</g>"
    }

    /// The mark's shape alone (the legend's sample).
    func shape(x: Int, y: Int) -> String {
      switch self {
      case .finished:
        "<line x1=\"\(x)\" y1=\"\(y - 12)\" x2=\"\(x)\" y2=\"\(y + 12)\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
      case .failed:
        "<line x1=\"\(x - 7)\" y1=\"\(y - 7)\" x2=\"\(x + 7)\" y2=\"\(y + 7)\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
          + "<line x1=\"\(x - 7)\" y1=\"\(y + 7)\" x2=\"\(x + 7)\" y2=\"\(y - 7)\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
      case .cancelled:
        "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"8\" fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
          + "<line x1=\"\(x - 6)\" y1=\"\(y + 6)\" x2=\"\(x + 6)\" y2=\"\(y - 6)\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
      case .running:
        "<line x1=\"\(x)\" y1=\"\(y - 8)\" x2=\"\(x)\" y2=\"\(y + 8)\" stroke=\"\(colour)\" stroke-width=\"2\" "
          + "stroke-dasharray=\"2 2\"/>"
      }
    }

    /// A lifetime bar from `from` to `to`, drawn as this ending draws it.
    func bar(from: Int, to: Int, y: Int, thickness: Int) -> String {
      "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y)\" stroke=\"\(colour)\" stroke-width=\"\(thickness)\"\(dash)/>"
    }

    /// What is written after the bar: `finished`, `failed: REASON`, `cancelled (REASON)`.
    static func said(_ kind: NodeEventKind?) -> String {
      switch kind {
      case .failed(let reason)?: "failed: \(reason)"
      case .cancelled(let reason)?: reason.isEmpty ? "cancelled" : "cancelled (\(reason))"
      case .finished?: "finished"
      case .start?, .element?, .asked?, .sending?, nil: "still running"
      }
    }
  }

  /// The two lines at the top of a picture: the command as typed, and what it was run on (its job,
  /// its clock, its tick, where its time axis starts).
  package struct Heading {
    let command: String
    let details: String

    /// How tall the heading stands: the command's line, and the details' lines.
    func height(width: Int) -> Int { 30 + 15 * detailLines(width: width).count }

    /// The details, wrapped to the picture's width (about 6.5 pixels a character at 11).
    func detailLines(width: Int) -> [String] {
      Format.wrapped(details, width: max(20, (width - 2 * MarblePicture.margin) * 2 / 13), indent: 0)
    }

    func svg(width: Int) -> [String] {
      let margin = MarblePicture.margin
      // About 8 pixels a character at 14 pixels, bold.
      let room = max(20, (width - 2 * margin) / 8)
      let shown = command.count > room ? String(command.prefix(room - 1)) + "…" : command
      return [
        "<g class=\"title\">",
        "<title>\(Markup.escaped(command, .picture))\n\(Markup.escaped(details, .picture))</title>",
        "<text class=\"command\" x=\"\(margin)\" y=\"\(margin + 6)\" font-size=\"14\" font-weight=\"bold\" "
          + "fill=\"#111111\">\(Markup.escaped(shown, .picture))</text>",
        "<text class=\"details\" x=\"\(margin)\" y=\"\(margin + 24)\" font-size=\"11\" fill=\"#555555\">"
          + detailLines(width: width).enumerated().map { index, line in
            "<tspan x=\"\(margin)\" dy=\"\(index == 0 ? 0 : 15)\">\(Markup.escaped(line, .picture))</tspan>"
          }.joined() + "</text>",
        "</g>",
      ]
    }

    package init(
      command: String, details: String
    ) {
      self.command = command
      self.details = details
    }
  }

  /// The marks a legend explains, in the order it lists them.
  enum Mark: Int, Comparable, CaseIterable {
    case element, tick, finished, failed, cancelled, running, lifetime, asked, sending, held, dropped, differs, ties

    static func < (left: Mark, right: Mark) -> Bool { left.rawValue < right.rawValue }
  }

  /// The marks one picture used, with the reasons it was cancelled for; drawn along its bottom.
  struct Legend {
    private(set) var marks: Set<Mark> = []
    private(set) var cancelReasons: [String] = []

    mutating func add(_ mark: Mark) { marks.insert(mark) }

    /// An element, or an end with its reason.
    mutating func add(_ kind: NodeEventKind, element: Mark = .element) {
      switch kind {
      case .element: marks.insert(element)
      case .finished: marks.insert(.finished)
      case .failed: marks.insert(.failed)
      case .cancelled(let reason):
        marks.insert(.cancelled)
        let reason = reason.isEmpty ? "no reason given" : reason
        if !cancelReasons.contains(reason) { cancelReasons.append(reason) }
      case .start, .asked, .sending: break
      }
    }

    /// Each item: its sample (drawn with its left edge at 0 and its middle at y 0) and its words.
    var items: [(sample: (Int, Int) -> String, words: String)] {
      marks.sorted().map { mark -> (sample: (Int, Int) -> String, words: String) in
        switch mark {
        case .element:
          return (
            { x, y in
              "<rect x=\"\(x)\" y=\"\(y - 9)\" width=\"24\" height=\"18\" rx=\"9\" fill=\"#dbe9f6\" stroke=\"#1f4e79\" "
                + "stroke-width=\"1.5\"/>"
            }, "element, its value inside (hover for its time and whole value)"
          )
        case .tick:
          return (
            { x, y in
              "<line x1=\"\(x + 12)\" y1=\"\(y - 9)\" x2=\"\(x + 12)\" y2=\"\(y + 9)\" stroke=\"#1f4e79\" stroke-width=\"2\"/>"
            }, "element, its value above it (hover for its time and whole value)"
          )
        case .finished:
          return ({ x, y in Ending.finished.shape(x: x + 12, y: y) }, "finished")
        case .failed:
          return ({ x, y in Ending.failed.shape(x: x + 12, y: y) }, "failed (its error beside it)")
        case .cancelled:
          return (
            { x, y in Ending.cancelled.shape(x: x + 12, y: y) },
            "cancelled: " + cancelReasons.joined(separator: "; ")
          )
        case .running:
          return (
            { x, y in Ending.running.bar(from: x, to: x + 24, y: y, thickness: 4) },
            "still running when the picture ends"
          )
        case .lifetime:
          return (
            { x, y in Ending.finished.bar(from: x, to: x + 24, y: y, thickness: 4) },
            "lifetime: from its first request to its end (dashed: cancelled; red: failed)"
          )
        case .asked:
          return (
            { x, y in
              "<rect x=\"\(x)\" y=\"\(y - 6)\" width=\"24\" height=\"12\" fill=\"#cfe7d2\" stroke=\"#5b8f63\"/>"
            }, "asked: its consumer's next() outstanding"
          )
        case .sending:
          return (
            { x, y in
              "<rect x=\"\(x)\" y=\"\(y - 6)\" width=\"24\" height=\"12\" fill=\"#f7dcb4\" stroke=\"#b7791f\"/>"
                + "<text x=\"\(x + 4)\" y=\"\(y + 4)\" font-weight=\"bold\">&gt;</text>"
            }, "into waiting for a consumer"
          )
        case .held:
          return (
            { x, y in "<rect x=\"\(x)\" y=\"\(y - 3)\" width=\"24\" height=\"6\" fill=\"#9db7d5\"/>" }, "held (count)"
          )
        case .dropped:
          return (
            { x, y in
              "<g stroke=\"#c0392b\" stroke-width=\"2\"><line x1=\"\(x + 8)\" y1=\"\(y - 4)\" x2=\"\(x + 16)\" "
                + "y2=\"\(y + 4)\"/><line x1=\"\(x + 8)\" y1=\"\(y + 4)\" x2=\"\(x + 16)\" y2=\"\(y - 4)\"/></g>"
            }, "dropped by the buffer's policy"
          )
        case .differs:
          return (
            { x, y in "<rect x=\"\(x)\" y=\"\(y - 8)\" width=\"24\" height=\"16\" fill=\"#fff3c4\"/>" },
            "≠ the two sides differ"
          )
        case .ties:
          return (
            { x, y in "<rect x=\"\(x)\" y=\"\(y - 8)\" width=\"24\" height=\"16\" fill=\"#fff3c4\"/>" },
            "≈ a tie: two events of one instant, ordered differently"
          )
        }
      }
    }

    static let rowHeight = 22

    /// The legend laid out in rows across `width`: its lines and its height.
    func svg(top: Int, width: Int) -> (lines: [String], height: Int) {
      let margin = MarblePicture.margin
      var out = ["<g class=\"legend\" font-size=\"11\" fill=\"#333333\">"]
      var x = margin
      var y = top + Self.rowHeight / 2
      for item in items {
        let itemWidth = 32 + MarblePicture.textWidth(item.words, size: 11) + 24
        if x > margin, x + itemWidth > width - margin {
          x = margin
          y += Self.rowHeight
        }
        out.append(
          "<g class=\"item\">" + item.sample(x, y)
            + "<text x=\"\(x + 32)\" y=\"\(y + 4)\">\(Markup.escaped(item.words, .picture))</text></g>")
        x += itemWidth
      }
      out.append("</g>")
      return (out, items.isEmpty ? 0 : y + Self.rowHeight / 2 - top + 6)
    }
  }
}
