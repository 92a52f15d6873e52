import PipeRuntime
import PipeSema

extension Commands {
  /// `trace PIPELINE`: runs it in the foreground, printing every node's lifecycle events; with
  /// `to: "F.svg"` (or `.html`), drawing them as a chart of lifetimes instead.
  enum Trace {
    static let entry = Command.pipeline(
      "trace", usage: "trace PIPELINE [to: \"F.svg\"|\"F.html\"]",
      summary:
        "runs a pipeline, printing every lifecycle event of every node; to: draws the nodes' lifetimes as a chart (a bar per node from start to end, by how it ended, with the reason and a tick per element) in an SVG picture or a web page instead",
      options: [CommandOptions.fileLabel]
    ) { shell, pipeline, options in
      guard options.file != nil || shell.report != nil else {
        let observer = TraceObserver(console: shell.console, labels: Inspector.labels(pipeline))
        await shell.runForeground(
          shell.jobs.start(pipeline, background: false, clock: shell.nextClock, observer: observer))
        return
      }
      let observer = DrawObserver()
      let job = shell.jobs.start(pipeline, background: false, clock: shell.nextClock, observer: observer)
      await shell.runForeground(job)
      let rows = LifetimeChart.rows(job.nodes) { observer.events(for: $0) }
      let end = rows.flatMap { $0.events.map(\.time) }.max() ?? .zero
      let chart = LifetimeChart(rows: rows, end: max(end, .milliseconds(1)))
      let text = rows.map(\.text)
      shell.writePicture(options.file, command: "trace", svg: chart.svg, title: "trace " + pipeline.text, text: text)
    }.example("trace from 1 2 | take 1")
  }
}
