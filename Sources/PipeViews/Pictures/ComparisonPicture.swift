import PipeCombine
import PipeSema
import PipeSession

/// `compare … to: "F.svg"`: for each stage the AA lane and the Combine lane one above the other on
/// one time axis, the Combine lane named by its counterpart (`†` for pipesh's own publishers), and
/// a pair that differs on a tinted band with its mark (`≠`, or `≈` for a tie).
package enum ComparisonPicture {
  package static func lanes(
    _ table: ComparisonTable, aa: [MarblePicture.Lane], combine: [CombineSide.Row]
  ) -> [MarblePicture.Lane] {
    table.rows.flatMap { row -> [MarblePicture.Lane] in
      let differs = !row.mark.isEmpty
      var out: [MarblePicture.Lane] = []
      if let index = row.aaIndex, aa.indices.contains(index) {
        out.append(
          MarblePicture.Lane(
            label: row.stage, events: aa[index].events, side: "AsyncAlgorithms", mark: row.mark, highlighted: differs))
      }
      if let index = row.combineIndex, combine.indices.contains(index) {
        let events = combine[index].events.map { time, event in (time: time, kind: kind(event)) }
        let what = row.combineIsLine ? row.counterpart : "\(row.counterpart) \(row.combine)"
        out.append(
          MarblePicture.Lane(
            label: row.aaIndex == nil ? row.stage : "", events: events, side: "Combine: \(what)",
            highlighted: differs, startsAtZero: true))
      }
      return out
    }
  }

  private static func kind(_ event: MarbleDiagram.Event) -> NodeEventKind {
    switch event {
    case .value(let text): .element(.string(text))
    case .finish: .finished
    case .fail: .failed("the publisher failed")
    case .cancel: .cancelled("its subscription was cancelled")
    }
  }
}
