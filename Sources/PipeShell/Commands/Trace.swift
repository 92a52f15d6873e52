import Locking
import PipeSema
import PipeSession
import PipeViews
import TextFiles
import TraceFormat
import VirtualTime

extension Commands {
  /// `trace PIPELINE`: runs it in the foreground, printing every node's lifecycle events; with
  /// `to: "F.svg"` (or `.html`), drawing them as a chart of lifetimes instead; with
  /// `to: "F.trace"`, saving them too, for `replay`.
  struct Trace: ShellCommand {
    static let signature = CommandSignature(
      "trace", .pipeline(partial: false, options: [CommandOptions.fileLabel, CommandOptions.orderLabel]),
      usage: "trace PIPELINE [to: \"F.svg\"|\"F.html\"|\"F.trace\"] [order: TOKEN]",
      summary:
        "runs a pipeline, printing every lifecycle event of every node, and each task it ran starting, being cancelled (by what) and ending, under the node whose code started it; to: a .svg or .html file draws the nodes' lifetimes as a chart (a bar per node from start to end, by how it ended, with the reason and a tick per element) in an SVG picture or a web page instead; to: a .trace file prints the trace and saves it, one JSON object a line, for replay; order: TOKEN runs it instead on a virtual clock of its own in the order explore named with TOKEN, as draw P order: TOKEN does (a token made for another pipeline, or whose choices do not fit its run, is refused before a line is printed; no to: with it)",
      files: CommandSignature.pictureFiles + [".trace"])
    static let example = HelpExample("trace from 1 2 | take 1")
    let pipeline: CheckedPipeline
    let options: CommandOptions

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.pipeline().map { Self(pipeline: $0.pipeline, options: $0.options) }
    }
    var reach: CommandReach { .runs(pipeline, writing: options.file) }
    var export: CommandExport { .own(startsJob: true) }

    func run(in shell: Shell) async {
      if let token = options.order {
        guard options.file == nil else {
          return shell.engine.commandFailed(
            "trace: order: prints the trace of one order; it saves no file (to:): drop one of them",
            at: options.orderArgument)
        }
        return await Self.inOrder(pipeline, token, argument: options.orderArgument, shell)
      }
      guard options.file != nil || shell.report != nil else {
        let observer = TraceObserver(console: shell.console, labels: Inspector.labels(pipeline))
        guard let feed = shell.presentFeed else {
          await shell.engine.run(pipeline, background: false, watchers: RunWatchers(printer: observer))
          return
        }
        // A presented session shows the chart `to: "F.svg"` would draw, beside the lines.
        let events = DrawObserver()
        let job = await shell.engine.run(
          pipeline, background: false, watchers: RunWatchers(printer: observer, drawing: events))
        feed.picture(title: "trace " + pipeline.text, svg: Self.chart(job, events, pipeline, shell).svg)
        return
      }
      if let file = options.file, file.lowercased().hasSuffix(".trace") {
        return await Self.save(pipeline, to: file, shell)
      }
      // The trace's lines are kept for the page (`--html`, `to: "F.html"`), as the terminal prints them.
      let observer = DrawObserver()
      let lines = Locked<[String]>([])
      let printer = TraceObserver(keepingIn: lines, labels: Inspector.labels(pipeline))
      // In the page of a script (`--html`), what is printed while the job runs stands among the
      // trace's lines under its chart, in the order the terminal shows it, not above the chart;
      // errors still go to the page's output, in red.
      let intoPage = options.file == nil
      let forward = Locked<(@Sendable (String, Console.Stream) -> Void)?>(nil)
      if intoPage {
        let previous = shell.console.replaceLineWriter { text, stream in
          if stream == .output { lines.withLock { $0.append(text) } } else { forward.withLock { $0 }?(text, stream) }
        }
        forward.withLock { $0 = previous }
      }
      let job = await shell.engine.run(
        pipeline, background: false, watchers: RunWatchers(printer: printer, drawing: observer))
      if intoPage { _ = shell.console.replaceLineWriter(forward.withLock { $0 }) }
      let chart = Self.chart(job, observer, pipeline, shell)
      shell.writePicture(
        options.file, command: "trace", svg: chart.svg, title: "trace " + pipeline.text, text: lines.withLock { $0 })
    }

    /// `trace P order: TOKEN`: runs on a virtual clock of its own, as `draw P order: TOKEN` does,
    /// to the same horizon, its lines held until the order is known to fit the run.
    private static func inOrder(_ pipeline: CheckedPipeline, _ token: OrderToken, argument: Int?, _ shell: Shell) async
    {
      let order = Engine.order(replaying: token.choices)
      let lines = Locked<[String]>([])
      // What the pipeline prints stands among the trace's lines, where it came.
      let printed = lines
      let horizon = Shell.Horizon(tick: pipeline.marbleTick ?? .seconds(1), until: nil)
      let recorded = await shell.engine.recordedRun(
        pipeline, horizon: horizon.end, printing: true, order: order, printedInto: printed,
        watching: TraceObserver(keepingIn: lines, labels: Inspector.labels(pipeline)))
      guard !order.misfit else {
        return shell.engine.commandFailed(
          "trace: this order: does not fit the pipeline's run (a choice it names was not there); explore it for its orders",
          at: argument)
      }
      for line in lines.withLock({ $0 }) { shell.console.line(line) }
      if let stop = recorded.stop { shell.note(stop.message("trace", horizon), width: Format.screenWidth) }
    }

    /// The chart of the job's nodes' lifetimes that `trace … to: "F.svg"` draws.
    private static func chart(
      _ job: JobSnapshot, _ observer: DrawObserver, _ pipeline: CheckedPipeline, _ shell: Shell
    ) -> LifetimeChart {
      // The axis starts at the job's start, not the session's: a later job is not drawn far to the
      // right of an empty axis. The lines keep the session's times, as `trace` prints them.
      let origin = job.start
      let rows = LifetimeChart.rows(job.nodes) { node in
        observer.events(for: node.identity).map { (time: $0.time - origin, kind: $0.kind) }
      }
      let end = rows.flatMap { $0.events.map(\.time) }.max() ?? .zero
      let clock = shell.engine.virtualTime ? "the session's virtual clock" : "the real clock"
      return LifetimeChart(
        rows: rows, end: max(end, .milliseconds(1)),
        heading: PictureMarks.Heading(
          command: "trace " + pipeline.text,
          details: "job \(job.id) · \(clock) · times from the job's start, which was \(origin.stampText) "
            + "on the session's clock (the times of trace's lines)"), origin: origin)
    }

    private static func save(_ pipeline: CheckedPipeline, to file: String, _ shell: Shell) async {
      let labels = Inspector.labels(pipeline)
      let virtual = shell.engine.virtualTime
      let recorder = TraceRecorder(
        printer: TraceObserver(console: shell.console, labels: labels),
        header: TraceFile.header(
          pipeline: pipeline.text, virtualClock: virtual, labels: labels, implicitSink: pipeline.hasImplicitSink))
      if let feed = shell.presentFeed {
        // A presented session shows the chart `to: "F.svg"` would draw.
        let events = DrawObserver()
        let job = await shell.engine.run(
          pipeline, background: false, watchers: RunWatchers(drawing: events, recorder: recorder))
        feed.picture(title: "trace " + pipeline.text, svg: Self.chart(job, events, pipeline, shell).svg)
      } else {
        await shell.engine.run(pipeline, background: false, watchers: RunWatchers(recorder: recorder))
      }
      let (text, kept, dropped) = recorder.saved
      switch TextFile.write(text, to: file) {
      case .success(let bytes):
        let left =
          dropped == 0 ? "" : "; the \(dropped) events after the first \(kept) are not in it (\(TraceFile.limits))"
        shell.console.line("trace: wrote \(file) (\(bytes) bytes)\(left)")
      case .failure(let failure):
        shell.engine.commandFailed("trace: \(failure); give a path in a directory you can write to")
      }
    }
  }
}
