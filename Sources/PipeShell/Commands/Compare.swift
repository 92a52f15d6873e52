import PipeCombine
import PipeRuntime
import PipeSema

extension Commands {
  /// `compare PIPELINE`: `draw`, with each stage's Combine counterpart drawn beside it.
  enum Compare {
    static let entry = Command.pipeline(
      "compare", usage: "compare PIPELINE [tick: D] [until: D]",
      summary:
        "draws a pipeline's stages (as draw does) beside their Combine counterparts (OpenCombine, virtual scheduler); ≠ marks rows that differ",
      options: ["tick", "until"]
    ) { shell, pipeline, options in
      await shell.compare(pipeline, tick: options["tick"], until: options["until"])
    }.example("compare marble \"ab-c|\" | debounce 2")
  }
}

extension Shell {
  /// `compare`: the AA side as `draw` records it, the Combine side on a virtual scheduler of its
  /// own from the same start, one table.
  func compare(_ pipeline: CheckedPipeline, tick chosen: Duration? = nil, until: Duration? = nil) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let tick = horizon.tick
    let drawn = await drawnRun(pipeline, horizon: horizon)
    let drained = pipeline.withDrainSinkIfImplicit()
    let combine = await interruptibly {
      CombineSide.run(
        drained, tick: tick, limit: horizon.end, maximumEvents: DrawObserver.maximumEvents,
        isInterrupted: { Task.isCancelled })
    }
    // As draw does, an implicit sink gets no row.
    let implicitSink = drained.sink?.text != pipeline.sink?.text
    let combineRows = combine.rows.filter { !(implicitSink && $0.isSink) }
    let table = ComparisonTable(aa: drawn.rows, combine: combineRows)
    for line in table.lines { console.line(line) }
    if let stop = drawn.stop ?? (combine.stopped ? .horizon : nil) {
      console.line(stop.message("compare", horizon), to: .error)
    }
  }
}

/// The rows of `compare`: AA's nodes and the Combine stages, paired by stage text in order (the
/// pipelines a `flatMap` builds per element have AA rows only).
struct ComparisonTable {
  static let differs = "≠"

  private(set) var rows: [[String]] = [["", "STAGE", "ASYNC ALGORITHMS", "COMBINE", "COMBINE COUNTERPART"]]
  private(set) var differing = 0
  private(set) var usesOwn = false

  init(aa: [(text: String, line: String)], combine: [CombineSide.Row]) {
    var next = 0
    for (text, line) in aa {
      guard let match = combine[next...].firstIndex(where: { $0.text == text }) else {
        rows.append(["", text, line, "", ""])
        continue
      }
      for unpaired in combine[next..<match] { add(unpaired, aa: nil) }
      add(combine[match], aa: line)
      next = match + 1
    }
    for unpaired in combine[next...] { add(unpaired, aa: nil) }
  }

  private mutating func add(_ row: CombineSide.Row, aa: String?) {
    if row.counterpart.contains("†") { usesOwn = true }
    let counterpart = row.counterpart
    switch row.outcome {
    case .drawn(let line):
      let differs = aa != line
      if differs { differing += 1 }
      rows.append([differs ? Self.differs : "", row.text, aa ?? "", line, counterpart])
    case .unmatched:
      rows.append(["", row.text, aa ?? "", "—", counterpart])
    case .notRun:
      rows.append(["", row.text, aa ?? "", "(no input)", counterpart])
    case .failed(let message):
      rows.append(["", row.text, aa ?? "", "(not built)", message])
    }
  }

  var lines: [String] {
    let marks = rows.map { $0[0] }
    let table = Format.table(rows.map { Array($0.dropFirst()) }, gap: 3)
    var lines = zip(marks, table).map { mark, line in
      var line = (mark.isEmpty ? " " : mark) + " " + line
      while line.last == " " { line.removeLast() }
      return line
    }
    if differing > 0 { lines.append("\(Self.differs) the Combine line differs from the AsyncAlgorithms line") }
    if usesOwn { lines.append("† " + Counterpart.ownNote) }
    return lines
  }
}
