import Locking
import PipeRuntime
import PipeSema

extension Commands {
  /// `draw PIPELINE`: runs it on a virtual clock of its own and draws one marble line per stage.
  enum Draw {
    static let entry = Command.pipeline(
      "draw", usage: "draw PIPELINE [tick: D]",
      summary: "runs a pipeline on the virtual clock and draws one marble line per stage (a column per tick, 1s)",
      options: ["tick"]
    ) { shell, pipeline, options in
      await shell.draw(pipeline, tick: options["tick"])
    }.example("draw timer 1 | take 3 | map { $0 * 10 }")
  }
}

extension Shell {
  /// `draw`: runs on a virtual clock of its own (the session's stands still) and prints one
  /// labelled marble line per node; an implicit sink is left out.
  func draw(_ pipeline: CheckedPipeline, tick chosen: Duration? = nil) async {
    let drawn = await drawnRun(pipeline, tick: chosen ?? pipeline.marbleTick ?? .seconds(1))
    for line in Format.table(drawn.rows.map { [$0.text, $0.line] }, gap: 3) { console.line(line) }
    if drawn.stopped { console.line(DrawnRun.stoppedMessage("draw"), to: .error) }
  }

  /// What `draw` (and `compare`, for the AA side) records of one run.
  struct DrawnRun {
    /// One row per node, source first, a combinator's inputs before it; an implicit sink is left out.
    let rows: [(text: String, line: String)]
    /// Whether the run was stopped at the widest diagram or the most events.
    let stopped: Bool

    static func stoppedMessage(_ command: String) -> String {
      "\(command): stopped the pipeline after \(DiagramRecorder.maximumColumns) ticks or \(DrawObserver.maximumEvents) events"
    }
  }

  /// Runs the pipeline on a virtual clock of its own and records every node's events.
  func drawnRun(_ pipeline: CheckedPipeline, tick: Duration) async -> DrawnRun {
    let observer = DrawObserver()
    let drained = pipeline.withDrainSinkIfImplicit()
    let clock = VirtualDriver()
    defer { clock.shutdown() }
    let job = jobs.start(drained, background: false, clock: .virtual(clock), observer: observer)
    observer.onLimit.withLock { $0 = { job.cancel() } }
    // A pipeline that does not end is stopped once it has filled the widest diagram.
    let context = job.context
    let stopped = Locked(false)
    let limit = Task(executorPreference: clock) {
      let end = context.start.advanced(by: tick * DiagramRecorder.maximumColumns)
      guard (try? await context.clock.sleep(until: end, tolerance: nil)) != nil else { return }
      stopped.withLock { $0 = true }
      job.cancel()
    }
    await runForeground(job, on: clock)
    await clock.perform(andWait: { limit.cancel() })
    let implicitSink = drained.sink?.text != pipeline.sink?.text
    let nodes = Node.flattened(job.nodes).filter { !(implicitSink && $0.isSink) }
    return DrawnRun(
      rows: nodes.map { ($0.text, observer.line(for: $0, tick: tick)) },
      stopped: stopped.withLock { $0 } || observer.overflowed)
  }
}
