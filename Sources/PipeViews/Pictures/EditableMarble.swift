import PipeSema
import PipeSyntax

/// A `marble "…"` lane the page of `pipesh serve` can edit (`pipesh --page`): where its literal's
/// text is in the script and what the text says, tick by tick. The picture wraps the lane in
/// `<g class="marble-input">` with these as data attributes; the page drags the marks and writes
/// the lane back into the script between `start` and `end` (Docs/internals.md, "The page's
/// annotations").
package struct EditableMarble {
  /// One value of the text: at `tick` (0 is the text's first character), as written.
  struct Mark {
    let tick: Int
    let value: String
  }

  /// How the text ends: `|`, `^`, or with nothing written (swift-async-algorithms' notation then
  /// finishes at its last value).
  enum End: String {
    case finished, failed, none
  }

  /// The literal's content (between its quotes) in the script, in UTF-16 code units.
  let start: Int
  let end: Int
  /// The length of one step of the diagram (`marble … tick: D`, else a second).
  let tick: Duration
  /// The text's values before its end, in order.
  let marks: [Mark]
  /// The text's end and its tick (with nothing written: the last value's, -1 for an empty text).
  let ending: (kind: End, tick: Int)

  /// The annotation of `stage`, a `marble "…"` written with a string literal in `source`, in
  /// swift-async-algorithms' notation; nil for any other stage, for RxJS's notation, for a literal
  /// with an escape or an interpolation (its text is not the diagram's), and for a text that
  /// cancels (`;`, which the page does not write).
  package init?(_ stage: CheckedStage, in source: SourceFile) {
    guard case .marble(let diagram, let tick, .aa)? = stage.operation, diagram.dialect == .aa,
      let content = Self.literal(at: stage.range, in: source)
    else { return nil }
    let bytes = Array(source.text.utf8)
    let text = String(decoding: bytes[content.start..<content.end], as: UTF8.self)
    guard !text.contains("\\"), case .success(let written) = MarbleDiagram.parse(text), written == diagram else {
      return nil
    }
    var marks: [Mark] = []
    var ending: (kind: End, tick: Int)?
    steps: for step in diagram.steps {
      for event in step.events {
        switch event {
        case .value(let value): marks.append(Mark(tick: step.step - 1, value: value))
        case .finish: ending = (.finished, step.step - 1)
        case .fail: ending = (.failed, step.step - 1)
        case .cancel: return nil
        }
        if ending != nil { break steps }
      }
    }
    self.ending = ending ?? (.none, marks.last?.tick ?? -1)
    self.marks = marks
    self.tick = tick
    func utf16(_ offset: Int) -> Int { String(decoding: bytes[..<offset], as: UTF8.self).utf16.count }
    start = utf16(content.start)
    end = utf16(content.end)
  }

  /// The byte range of the content of the first string literal in `range`, as the lexer reads one.
  private static func literal(at range: SourceRange, in source: SourceFile) -> (start: Int, end: Int)? {
    let bytes = Array(source.text.utf8)
    guard range.end <= bytes.count,
      let open = bytes[range.start..<range.end].firstIndex(of: UInt8(ascii: "\""))
    else { return nil }
    var index = open + 1
    while index < range.end {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return (open + 1, index)
      case UInt8(ascii: "\n"): return nil
      default: index += 1
      }
    }
    return nil
  }

  /// The opening tag around the lane: the literal's place, the x of tick 0, a tick's width and
  /// how many ticks the lane shows.
  func openingTag(x0: Int, tickWidth: Double, ticks: Int) -> String {
    "<g class=\"marble-input\" data-source=\"\(start):\(end)\" data-x0=\"\(x0)\" "
      + "data-tick-width=\"\(Self.number(tickWidth))\" data-ticks=\"\(ticks)\">"
  }

  /// A width in SVG units to a thousandth, written the same in every run: `28`, `28.125`.
  static func number(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let whole = thousandths / 1000
    let rest = thousandths % 1000
    guard rest != 0 else { return "\(whole)" }
    var digits = String(rest)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits)"
  }

  /// The lane's drawn end stands for the text's: finished or failed as written, finished where
  /// nothing is written. Cancelled (its consumer stopped first) it does not.
  func ends(as kind: NodeEventKind) -> Bool {
    switch (kind, ending.kind) {
    case (.finished, .finished), (.finished, .none), (.failed, .failed): true
    default: false
    }
  }

  /// The opening tag around the text's end mark.
  var endTag: String {
    "<g class=\"marble-end\" data-tick=\"\(ending.tick)\" data-kind=\"\(ending.kind.rawValue)\">"
  }
}
