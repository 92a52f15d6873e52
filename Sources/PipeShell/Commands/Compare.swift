import PipeCombine
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Commands {
  /// `compare PIPELINE`: `draw`, with each stage's Combine counterpart drawn beside it.
  struct Compare: ShellCommand {
    static let signature = CommandSignature(
      "compare", .pipeline(partial: false, options: ["tick", "until", CommandOptions.fileLabel]),
      usage: "compare PIPELINE [tick: D] [until: D] [to: \"F.svg\"|\"F.html\"]",
      summary:
        "draws a pipeline's stages (as draw does) beside their Combine counterparts (OpenCombine, virtual scheduler); ≠ marks rows that differ, ≈ rows that differ only in the order of events at one instant (a tie); to: writes the two lanes of each stage on one time axis as an SVG picture or a web page instead"
    )
    static let example = HelpExample("compare marble \"ab-c|\" | debounce 2")
    let pipeline: CheckedPipeline
    let options: CommandOptions

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.pipeline().map { Self(pipeline: $0.pipeline, options: $0.options) }
    }
    var reach: CommandReach { .runs(pipeline, writing: options.file) }
    var export: CommandExport { .own(startsJob: true) }

    func run(in shell: Shell) async {
      await shell.compare(pipeline, tick: options["tick"], until: options["until"], to: options.file)
    }
  }
}

extension Shell {
  /// `compare`: the AA side as `draw` records it, the Combine side on a virtual scheduler of its
  /// own from the same start, one table. A row that differs is run again on the Combine side with
  /// the actions of one instant (in the column where it first differs) in reversed order: if the
  /// row then agrees, the difference is a tie (`≈`), not Combine behaving differently (`≠`).
  func compare(
    _ pipeline: CheckedPipeline, tick chosen: Duration? = nil, until: Duration? = nil, to file: String? = nil
  ) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let drawn = await drawnRun(pipeline, horizon: horizon, refining: chosen == nil)
    let tick = drawn.tick
    let drained = pipeline.withQuietSinkIfImplicit()
    // As draw does, an implicit sink gets no row.
    let implicitSink = pipeline.hasImplicitSink
    let run = { @Sendable (reversing: Range<Duration>?) -> CombineSide.Result in
      CombineSide.run(
        drained, tick: tick, limit: horizon.end, maximumEvents: DrawObserver.maximumEvents,
        reversingTiesIn: reversing, isInterrupted: { Task.isCancelled })
    }
    let rows = { @Sendable (result: CombineSide.Result) in result.rows.filter { !(implicitSink && $0.isSink) } }
    let combine = await engine.interruptibly { run(nil) }
    let timed = Set(pipeline.allStages.filter(\.isTimed).map(\.text))
    let first = ComparisonTable(aa: drawn.rows, combine: rows(combine), tick: tick, timed: timed)
    let reruns = await engine.interruptibly {
      first.differingColumns.map { column in
        let window = ComparisonTable.window(column: column, tick: tick)
        let result = run(window)
        return (column, ComparisonTable.Rerun(instant: result.reversedTie, rows: rows(result)))
      }
    }
    let table = ComparisonTable(
      aa: drawn.rows, combine: rows(combine), tick: tick, timed: timed,
      reruns: Dictionary(reruns, uniquingKeysWith: { first, _ in first }))
    let width = Format.screenWidth
    func picture() -> MarblePicture {
      let lanes = ComparisonPicture.lanes(table, aa: drawn.lanes, combine: rows(combine))
      let latest = lanes.flatMap { $0.events.map(\.time) }.max() ?? .zero
      return MarblePicture(
        lanes: lanes, end: max(drawn.end, latest),
        heading: PictureMarks.Heading(
          command: "compare " + pipeline.text,
          details: "job \(drawn.recorded.jobID) · AsyncAlgorithms 1.1.4 and Combine (OpenCombine 0.14.0), each on "
            + "a virtual clock of its own from 0 at the start · a column of the text is \(MarbleLanes.label(tick))"))
    }
    if file != nil || report != nil {
      let picture = picture()
      writePicture(
        file, command: "compare", svg: picture.svg, title: "compare " + pipeline.text,
        text: table.lines(width: 100_000, tick: tick).lines)
      if let stop = drawn.stop ?? (combine.stopped ? .horizon : nil) {
        note(stop.message("compare", horizon), width: width)
      }
      return
    }
    let (lines, cut) = table.lines(width: width, tick: tick)
    for line in lines { console.line(line) }
    presentFeed?.picture(title: "compare " + pipeline.text, svg: picture().svg)
    if tick != horizon.tick { note(Self.finerNote("compare", tick, horizon.tick), width: width) }
    if cut { note(Self.cutNote("compare", width: width), width: width) }
    if let stop = drawn.stop ?? (combine.stopped ? .horizon : nil) {
      note(stop.message("compare", horizon), width: width)
    }
  }
}
