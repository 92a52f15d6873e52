extension Commands {
  /// `trace PIPELINE`: runs it in the foreground, printing every node's lifecycle events.
  enum Trace {
    static let entry = Command.pipeline(
      "trace", usage: "trace PIPELINE", summary: "runs a pipeline, printing every lifecycle event of every node"
    ) { shell, pipeline, _ in
      let observer = TraceObserver(console: shell.console, labels: Inspector.labels(pipeline))
      await shell.runForeground(
        shell.jobs.start(pipeline, background: false, clock: shell.nextClock, observer: observer))
    }.example("trace from 1 2 | take 1")
  }
}
