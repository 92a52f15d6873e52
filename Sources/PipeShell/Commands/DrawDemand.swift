import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Shell {
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
