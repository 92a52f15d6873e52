import PipeSema
import PipeSession
import PipeViews
import TraceFormat

extension Shell {
  /// `draw P dialect: rxjs`: runs the pipeline as `draw` does and writes its lanes in RxJS's
  /// marble notation (`RxJSLanes`): frame N (N ticks after the start) in column N of every lane,
  /// under a ruler of frames, and the legend of the values written as letters under them.
  func drawRxJS(_ pipeline: CheckedPipeline, tick chosen: Duration?, until: Duration?) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let recorded = await engine.recordedRun(pipeline, horizon: horizon.end)
    let lanes = recorded.nodes.map { node in
      recorded.events(for: node).map { ($0.time, TraceFile.EventKind($0.kind)) }
    }
    printRxJS(recorded.nodes.map(\.text), lanes, tick: horizon.tick, refining: chosen == nil)
    if let stop = recorded.stop { note(stop.message("draw", horizon), width: Format.screenWidth) }
  }

  /// `draw "F.trace" dialect: rxjs`: a saved trace's lanes in RxJS's notation, times from its
  /// first event.
  func drawSavedRxJS(_ path: String, tick chosen: Duration?, until: Duration?) {
    guard let recording = readTrace(path, command: "draw") else { return }
    let lanes = TraceLanes(recording, until: until)
    guard !lanes.rows.isEmpty else {
      return engine.commandFailed(
        "draw: \(path) has no node events to draw; save one with trace PIPELINE to: \"F.trace\"")
    }
    printRxJS(lanes.rows.map(\.label), lanes.rows.map(\.events), tick: chosen ?? .seconds(1), refining: chosen == nil)
  }

  /// Prints labelled lanes in RxJS's notation: with `refining`, at the first fraction of `tick`
  /// (½, ¼, ⅕ … 1/100) at which no frame holds events of different instants and no group's
  /// characters run into its lane's next event; else at `tick`, or an error saying why not.
  private func printRxJS(
    _ labels: [String], _ lanes: [[(Duration, TraceFile.EventKind)]], tick: Duration, refining: Bool
  ) {
    let width = Format.screenWidth
    var failure: RxJSLanes.Failure?
    for divisor in refining ? [1, 2, 4, 5, 10, 20, 50, 100] : [1] {
      let frame = tick / divisor
      let timed = lanes.map { Self.frames($0, frame: frame) }
      // A finer frame only where the lanes need it, and no wider than `draw` draws.
      if refining, divisor < 100 {
        let last = timed.compactMap { $0.last?.frame.frame }.max() ?? 0
        if last > DiagramRecorder.maximumColumns { break }
        if timed.contains(where: Self.sharesFrame) { continue }
      }
      switch RxJSLanes.write(timed.map { $0.map { ($0.frame.frame, $0.event) } }) {
      case .failure(let reason):
        failure = reason
        continue
      case .success(let written):
        let (lines, cut, indent) = Self.laidOut(
          labels, ruler: MarbleLanes.rxjsRuler(frames: written.lines.map(\.count).max() ?? 0, tick: frame),
          lanes: written.lines, width: width)
        for line in lines { console.line(line) }
        if let legend = written.legendLine {
          for line in Format.wrapped(legend, width: max(10, width - indent)) {
            console.line(String(repeating: " ", count: indent) + line)
          }
        }
        if frame != tick {
          note(
            "draw: a frame is \(MarbleLanes.label(frame)), not \(MarbleLanes.label(tick)): at \(MarbleLanes.label(tick)) "
              + "events of different instants would share a frame, or a group's characters ((ab) takes four frames) "
              + "would run into the next event; tick: D sets it",
            width: width)
        }
        if cut { note(Self.cutNote("draw", width: width), width: width) }
        return
      }
    }
    switch failure {
    case .collision(let lane, let frame):
      engine.commandFailed(
        "draw: RxJS's notation cannot write '\(labels[lane])' in frames of \(MarbleLanes.label(tick)): its group at "
          + "\(MarbleLanes.label(tick * frame)) takes a frame per character, (ab) four, and runs into its next event; "
          + "a finer tick: D writes it")
    case .tooManyValues(let limit):
      engine.commandFailed(
        "draw: more than \(limit) distinct values that are not one plain character: RxJS's notation writes each as "
          + "one letter; draw it without dialect: rxjs")
    case nil:
      engine.commandFailed(
        "draw: the lanes span more than \(DiagramRecorder.maximumColumns) frames in frames fine enough for RxJS's "
          + "notation; a larger tick: or an earlier until: draws them")
    }
  }

  /// A lane's events by frame (the start is frame 0), each with its exact time.
  private static func frames(
    _ events: [(Duration, TraceFile.EventKind)], frame: Duration
  ) -> [(frame: (frame: Int, time: Duration), event: MarbleDiagram.Event)] {
    events.compactMap { time, kind in
      let event: MarbleDiagram.Event
      switch kind {
      case .start, .asked, .sending: return nil
      case .element(let value): event = .value(value)
      case .finished: event = .finish
      case .failed: event = .fail
      case .cancelled: event = .cancel
      }
      let frames = Int(min((time / frame + 1e-9).rounded(.down), Double(Int32.max)))
      return ((max(0, frames), time), event)
    }
  }

  /// Whether events of different instants fall in one frame.
  private static func sharesFrame(_ lane: [(frame: (frame: Int, time: Duration), event: MarbleDiagram.Event)]) -> Bool {
    var seen: [Int: Duration] = [:]
    for (frame, _) in lane {
      if let earlier = seen[frame.frame], earlier != frame.time { return true }
      seen[frame.frame] = frame.time
    }
    return false
  }
}
