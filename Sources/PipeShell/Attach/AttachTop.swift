import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat

extension AttachSession {
  /// `top`'s table of an attached program: a row per probe's lane (its state, elements, asks, its
  /// elements a second over the 5 s before the probes' last event, and the time from its last
  /// element to that event), under a line saying what the times are counted to. The trace holds no
  /// "now" of the program: its last event is the latest time it tells, and the heading says so.
  /// A live frame (`live`) says Ctrl-C stops it and is at most `height` lines: the lanes that do
  /// not fit are counted on its last line.
  static func top(
    _ recording: TraceFile.Recording, live: Bool, width: Int = Format.screenWidth, height: Int = .max
  ) -> [String] {
    let lanes = lanes(recording)
    guard let end = lanes.compactMap({ $0.events.last?.time }).max() else {
      return ["no probe has recorded anything yet"]
    }
    // The rate is over the last 5 s, or the whole trace when it is shorter (counting its first
    // instant); under a second it would say too much of too little, and is not given.
    let start = lanes.compactMap { $0.events.first?.time }.min() ?? .zero
    let window = min(TopHistory.window, end - start)
    let heading =
      "pipesh attach top · " + (live ? "a frame a second, Ctrl-C stops · " : "")
      + "\(lanes.count) \(lanes.count == 1 ? "lane" : "lanes") · up to " + end.stampText
      + ", the probes' last event"
    var rows = [["PROBE", "STATE", "ELEMENTS", "ASKED", "RATE/s", "LAST"]]
    for lane in lanes {
      let elements = lane.elementTimes
      let recent = elements.count { window == end - start || $0 > end - window }
      rows.append([
        lane.name, state(lane), String(elements.count), String(lane.asked),
        window >= .seconds(1) ? TopView.rateText(Double(recent) / window.inSecondsValue) : "-",
        elements.last.map { (end - $0).secondsText } ?? "-",
      ])
    }
    // Each line fits the screen: a live frame is redrawn over as many lines as it wrote.
    var lines = Format.table(rows, fitting: width, shrinking: 0).map { Format.shortened($0, to: width) }
    let note = droppedNote(recording)
    // The heading, the table's titles and the note stay; the lanes past the screen are counted.
    // (On a screen too low for a lane, the titles and the count still come: a line or two over.)
    let room = height - 1 - (note == nil ? 0 : 1)
    if lines.count > room, let titles = lines.first {
      let shown = max(0, room - 2)
      let hidden = lines.count - 1 - shown
      lines =
        [titles] + lines.dropFirst().prefix(shown)
        + ["(\(hidden) more \(hidden == 1 ? "lane" : "lanes") below the screen)"]
    }
    return [Format.shortened(heading, to: width)] + lines + (note.map { [Format.shortened($0, to: width)] } ?? [])
  }

  /// `top` at a terminal: a frame a second, each drawn over the last, from the trace as it is
  /// then, until the task is cancelled (Ctrl-C). False when the program could not be read (said).
  static func liveTop(fetch: Fetch, _ shell: Shell) async -> Bool {
    var drawn = 0
    while !Task.isCancelled {
      let recording: TraceFile.Recording
      switch fetch().map(TraceFile.parse) {
      case .success(.success(let parsed)): recording = parsed
      case .success(.failure(let problem)):
        shell.console.line("pipesh attach: the program answered with no trace: \(problem.message)", to: .error)
        return false
      case .failure(let failure):
        shell.console.line("pipesh attach: \(failure)", to: .error)
        return false
      }
      // A line is kept free below the frame, for the cursor.
      let size = TerminalSize.current()
      let lines = top(recording, live: true, width: size.columns, height: size.rows - 1)
      // Up to the last frame's first line, and clear from there down.
      if drawn > 0 { Console.writeNow("\u{1B}[\(drawn)F\u{1B}[J") }
      for line in lines { shell.console.line(line) }
      shell.console.flush()
      drawn = lines.count
      try? await Task.sleep(for: .seconds(1))
    }
    return true
  }
}
