import PipeCombine
import PipeSema
import PipeSession
import PipeSyntax

/// The rows of `compare`: AA's nodes and the Combine stages, paired by stage text in order (the
/// pipelines a `flatMap` builds per element have AA rows only).
package struct ComparisonTable {
  static let differs = "≠"
  static let ties = "≈"

  /// The Combine side run again with the actions of one instant in reversed order.
  package struct Rerun {
    /// The instant whose actions were reversed, if two came due at once.
    package let instant: Duration?
    package let rows: [CombineSide.Row]

    package init(
      instant: Duration? = nil, rows: [CombineSide.Row]
    ) {
      self.instant = instant
      self.rows = rows
    }
  }

  /// One stage: its mark, its AA line (none for a Combine stage AA has no row for), and its
  /// Combine cell, a line or a note such as `(no input)`.
  package struct Row {
    package let mark: String
    package let stage: String
    package let aa: String
    package let combine: String
    package let combineIsLine: Bool
    package let counterpart: String
    /// The AA row's and the Combine row's places in what the table was made of.
    package var aaIndex: Int?
    package var combineIndex: Int?
  }

  private(set) var rows: [Row] = []
  private(set) var differing = 0
  private(set) var usesOwn = false
  /// The columns where a differing row first differs.
  package private(set) var differingColumns: Set<Int> = []
  /// What each tie was, once each.
  private(set) var tieNotes: [String] = []
  private let aa: [(text: String, line: String)]
  private let timed: Set<String>
  private let reruns: [Int: Rerun]
  private let tick: Duration

  package init(
    aa: [(text: String, line: String)], combine: [CombineSide.Row], tick: Duration, timed: Set<String> = [],
    reruns: [Int: Rerun] = [:]
  ) {
    self.aa = aa
    self.tick = tick
    self.timed = timed
    self.reruns = reruns
    var next = 0
    for (index, (text, line)) in aa.enumerated() {
      guard let match = combine[next...].firstIndex(where: { $0.text == text }) else {
        rows.append(
          Row(mark: "", stage: text, aa: line, combine: "", combineIsLine: true, counterpart: "", aaIndex: index))
        continue
      }
      for unpaired in next..<match { add(combine[unpaired], index: unpaired, aa: nil) }
      add(combine[match], index: match, aa: (index, line))
      next = match + 1
    }
    for unpaired in next..<combine.count { add(combine[unpaired], index: unpaired, aa: nil) }
  }

  private mutating func add(_ row: CombineSide.Row, index: Int, aa: (index: Int, line: String)?) {
    let before = rows.count
    defer {
      for added in before..<rows.count {
        rows[added].aaIndex = aa?.index
        rows[added].combineIndex = index
      }
    }
    if row.counterpart.contains("†") { usesOwn = true }
    let counterpart = row.counterpart
    switch row.outcome {
    case .drawn(let line):
      guard let aa, aa.line != line else {
        // A stage the AA side has no row for draws its Combine line alone.
        rows.append(
          Row(
            mark: "", stage: row.text, aa: aa?.line ?? "", combine: line, combineIsLine: true, counterpart: counterpart)
        )
        return
      }
      var mark = Self.differs
      if let column = Self.firstDifference(aa.line, line) {
        differingColumns.insert(column)
        switch tie(at: column, row: index, aa: aa) {
        case .only(let tie):
          mark = Self.ties
          if !tieNotes.contains(tie) { tieNotes.append(tie) }
        case .andLater(let tie, let later):
          // A tie first, and a real difference after it: `≠`, with both said.
          let note =
            "\(Self.differs) \(row.text): a tie at \(tie), then a real difference at \(MarbleLanes.label(later))"
          if !tieNotes.contains(note) { tieNotes.append(note) }
        case nil: break
        }
      }
      if mark == Self.differs { differing += 1 }
      rows.append(
        Row(mark: mark, stage: row.text, aa: aa.line, combine: line, combineIsLine: true, counterpart: counterpart))
    case .unmatched:
      rows.append(
        Row(mark: "", stage: row.text, aa: aa?.line ?? "", combine: "—", combineIsLine: false, counterpart: counterpart)
      )
    case .notRun:
      rows.append(
        Row(
          mark: "", stage: row.text, aa: aa?.line ?? "", combine: "(no input)", combineIsLine: false,
          counterpart: counterpart))
    case .failed(let message):
      rows.append(
        Row(
          mark: "", stage: row.text, aa: aa?.line ?? "", combine: "(not built)", combineIsLine: false,
          counterpart: message))
    }
  }

  /// The tie that explains a difference first seen in `column`: the rerun with that column's
  /// instants reversed draws the AA line. Nil when it does not (a real difference).
  /// How a tie explains a difference.
  private enum Tie {
    /// All of it: `≈`, and what tied.
    case only(String)
    /// Its first column; the row still differs at a later time.
    case andLater(String, Duration)
  }

  private func tie(at column: Int, row index: Int, aa: (index: Int, line: String)) -> Tie? {
    guard let rerun = reruns[column], let instant = rerun.instant, rerun.rows.indices.contains(index),
      case .drawn(let reordered) = rerun.rows[index].outcome
    else { return nil }
    if reordered != aa.line {
      guard let later = Self.firstDifference(aa.line, reordered), later > column else { return nil }
      let tie = "\(MarbleLanes.label(instant)) (\(tied(at: column, row: aa.index)))"
      return .andLater(tie, tick * later)
    }
    return .only(
      "\(Self.ties) tie at \(MarbleLanes.label(instant)): \(tied(at: column, row: aa.index)) come at one instant; "
        + "the two schedulers order them differently")
  }

  /// What came due at one instant, in words: `'e' and a deadline of chunks 3 every: 2.5`.
  private func tied(at column: Int, row index: Int) -> String {
    // What came due at that instant: the events of the stages before it in that column, and the
    // stage's own deadline when it has one.
    var what: [String] = []
    let text = aa[index].text
    // The stage's own events too, unless it has a deadline of its own: that is then the other party.
    for earlier in aa[...index] where earlier.text != text || !timed.contains(text) {
      guard case .success(let diagram) = MarbleDiagram.parse(earlier.line),
        let step = diagram.steps.first(where: { $0.step == column })
      else { continue }
      for event in step.events where !what.contains(Self.describe(event)) { what.append(Self.describe(event)) }
    }
    if timed.contains(text) { what.append("a deadline of \(text)") }
    if what.count > 4 { return what.prefix(4).joined(separator: ", ") + " and more" }
    if what.count > 1 { return what.dropLast().joined(separator: ", ") + " and " + what[what.count - 1] }
    return "\(what.first ?? "an event") and another event"
  }

  private static func describe(_ event: MarbleDiagram.Event) -> String {
    switch event {
    case .value(let text): "'" + text + "'"
    case .finish: "a finish"
    case .fail: "a failure"
    case .cancel: "a cancellation"
    }
  }

  /// The first column (step) in which two lines have different events.
  static func firstDifference(_ left: String, _ right: String) -> Int? {
    guard case .success(let left) = MarbleDiagram.parse(left), case .success(let right) = MarbleDiagram.parse(right)
    else { return nil }
    for step in 1...max(left.steps.count, right.steps.count, 1) {
      let leftEvents = left.steps.first { $0.step == step }?.events ?? []
      let rightEvents = right.steps.first { $0.step == step }?.events ?? []
      if leftEvents != rightEvents { return step }
    }
    return nil
  }

  /// The instants a column stands for (`DiagramRecorder.column(of:)`): the first column holds
  /// everything before the second tick.
  package static func window(column: Int, tick: Duration) -> Range<Duration> {
    (column <= 1 ? .zero : tick * column)..<(tick * (column + 1))
  }

  /// The table in `width` columns: a row a stage when that fits, else the AA line and the Combine
  /// line one under the other; a line wider than the room left is cut at the edge (`cut`).
  package func lines(width: Int, tick: Duration) -> (lines: [String], cut: Bool) {
    // Every lane on one grid, so the ruler stands over both sides.
    let lanes = rows.flatMap { [$0.aa] + ($0.combineIsLine ? [$0.combine] : []) }
    let aligned = MarbleLanes(lanes, tick: tick)
    var next = aligned.lines.makeIterator()
    let laid = rows.map { row -> (Row, aa: String, combine: String) in
      let aa = next.next() ?? row.aa
      let combine = row.combineIsLine ? next.next() ?? row.combine : row.combine
      return (row, aa, combine)
    }
    var cut = false
    func fit(_ lane: String, _ room: Int) -> String {
      guard Format.columns(lane) > room else { return lane }
      cut = true
      return Format.shortened(lane, to: room)
    }
    // Which implementations the two sides are, once, above the table.
    var lines = ["  " + Self.sides]
    let header = ["STAGE", "ASYNC ALGORITHMS", "COMBINE", "COMBINE COUNTERPART"]
    let oneRow = Format.table(
      [header, ["", aligned.ruler, aligned.ruler, ""]]
        + laid.map { [$0.0.stage, $0.aa, $0.combine, $0.0.counterpart] },
      gap: 3)
    if oneRow.allSatisfy({ Format.columns($0) + 2 <= width }) {
      let marks = ["", ""] + rows.map(\.mark)
      lines += zip(marks, oneRow).map { mark, line in Self.trimmed(Self.painted(mark) + " " + line) }
    } else {
      // The stage (and under it its counterpart) on the left; AA's line, then Combine's.
      let stageWidth = Format.labelWidth(
        rows.map { max(Format.columns($0.stage), Format.columns($0.counterpart) + 2) }.max() ?? 5,
        beside: laid.map { max(Format.columns($0.aa), Format.columns($0.combine)) }.max() ?? 0,
        gap: 3 + "Combine".count + 3 + 2, width: width)
      let room = max(10, width - 2 - stageWidth - 3 - "Combine".count - 3)
      func line(_ mark: String, _ stage: String, _ side: String, _ lane: String) -> String {
        let left = Format.pad(Format.shortened(stage, to: stageWidth), stageWidth + 3)
        return Self.trimmed(Self.painted(mark) + " " + left + Format.pad(side, "Combine".count + 3) + lane)
      }
      lines.append(line("", "STAGE", "SIDE", "LINE"))
      lines.append(line("", "", "", fit(aligned.ruler, room)))
      for (row, aa, combine) in laid {
        lines.append(line(row.mark, row.stage, "AA", fit(aa, room)))
        lines.append(line("", row.counterpart.isEmpty ? "" : "  " + row.counterpart, "Combine", fit(combine, room)))
      }
    }
    // The notes under the table wrap to the screen, under their text.
    func note(_ mark: String, _ text: String) {
      let wrapped = Format.wrapped("  " + text, width: width, indent: 0)
      lines += wrapped.enumerated().map { index, line in index == 0 ? Self.painted(mark) + line.dropFirst() : line }
    }
    if differing > 0 { note(Self.differs, "the Combine line differs from the AsyncAlgorithms line") }
    for tie in tieNotes { note(String(tie.prefix(1)), String(tie.dropFirst(2))) }
    if usesOwn { note("†", Counterpart.ownNote) }
    return (lines, cut)
  }

  /// What the two sides run: `compare`'s Combine is OpenCombine, which may differ from Apple's.
  static let sides = "AA: AsyncAlgorithms 1.1.4 · Combine: OpenCombine 0.14.0, not Apple's"

  /// A row's mark: `≠` red, `≈` yellow on a terminal; a space for none.
  private static func painted(_ mark: String) -> String {
    let colour = Paint.isOn(for: 1)
    switch mark {
    case differs: return Paint.paint(mark, .red, bold: true, on: colour)
    case ties: return Paint.paint(mark, .yellow, bold: true, on: colour)
    default: return mark.isEmpty ? " " : mark
    }
  }

  private static func trimmed(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }
}
