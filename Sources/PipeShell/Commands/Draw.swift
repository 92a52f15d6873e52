import Locking
import PipeRuntime
import PipeSema

extension Commands {
  /// `draw PIPELINE`: runs it on a virtual clock of its own and draws one marble line per stage.
  enum Draw {
    static let entry = Command.pipeline(
      "draw", usage: "draw PIPELINE [tick: D] [until: D]",
      summary:
        "runs a pipeline on the virtual clock and draws one marble line per stage (a column per tick: the first marble's, else 1s; until 60 ticks)",
      options: ["tick", "until"]
    ) { shell, pipeline, options in
      await shell.draw(pipeline, tick: options["tick"], until: options["until"])
    }.example("draw timer 1 | take 3 | map { $0 * 10 }")
  }
}

extension Shell {
  /// `draw`: runs on a virtual clock of its own (the session's stands still) and prints one
  /// labelled marble line per node; an implicit sink is left out.
  func draw(_ pipeline: CheckedPipeline, tick chosen: Duration? = nil, until: Duration? = nil) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let drawn = await drawnRun(pipeline, horizon: horizon)
    for line in Format.table(drawn.rows.map { [$0.text, $0.line] }, gap: 3) { console.line(line) }
    if let stop = drawn.stop { console.line(stop.message("draw", horizon), to: .error) }
  }

  /// How far `draw` and `compare` run a pipeline: `until:`, else 60 ticks; at most the widest
  /// diagram (10,000 ticks).
  struct Horizon {
    static let defaultTicks = 60
    let tick: Duration
    let end: Duration
    let isDefault: Bool

    init(tick: Duration, until: Duration?) {
      self.tick = tick
      let widest = tick * DiagramRecorder.maximumColumns
      end = min(until ?? tick * Self.defaultTicks, widest)
      isDefault = until == nil
    }
  }

  /// What `draw` (and `compare`, for the AA side) records of one run.
  struct DrawnRun {
    /// One row per node, source first, a combinator's inputs before it; an implicit sink is left out.
    let rows: [(text: String, line: String)]
    /// Why the run was stopped before the pipeline ended, if it was.
    let stop: Stop?
  }

  /// Why `draw` or `compare` cancelled a pipeline that had not ended.
  enum Stop {
    case horizon
    case events

    func message(_ command: String, _ horizon: Horizon) -> String {
      switch self {
      case .events:
        return "\(command): stopped the pipeline after \(DrawObserver.maximumEvents) events"
      case .horizon where horizon.isDefault:
        return
          "\(command): the pipeline had not ended after \(Horizon.defaultTicks) ticks (\(horizon.end.secondsText)): cancelled there; until: D draws further"
      case .horizon:
        return "\(command): the pipeline had not ended by \(horizon.end.secondsText): cancelled there"
      }
    }
  }

  /// Runs the pipeline on a virtual clock of its own and records every node's events.
  func drawnRun(_ pipeline: CheckedPipeline, horizon: Horizon) async -> DrawnRun {
    let tick = horizon.tick
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
      let end = context.start.advanced(by: horizon.end)
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
      stop: observer.overflowed ? .events : stopped.withLock { $0 } ? .horizon : nil)
  }
}
