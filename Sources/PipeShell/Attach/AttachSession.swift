import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TextFiles
import TraceFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh attach SOCKET -c TEXT`: statements about a running program, each reading its probes'
/// trace as the program's recorder has it at that moment. The program is never stopped: each
/// statement asks for the trace once (`fetch`) and lets go.
public enum AttachSession {
  /// The program's trace as it is now, or why it cannot be had.
  public typealias Fetch = @Sendable () -> Result<String, any Error>

  /// Runs `text` against the program `fetch` reaches, on `console`. Status: 0 done, 1 the program
  /// could not be reached or a statement failed, 2 `text` has errors (nothing was asked then).
  public static func run(_ text: String, fetch: Fetch, console: Console) async -> Int32 {
    let source = SourceFile(name: "<-c>", text: text)
    let (statements, diagnostics) = AttachStatement.parse(source)
    guard diagnostics.isEmpty else {
      console.report(diagnostics, in: source)
      return 2
    }
    return await run(statements, fetch: fetch, console: console)
  }

  /// `pipesh attach SOCKET [--save FILE]`: the trace as it is now drawn whole, and saved to `path`
  /// first when given (the same trace: it is asked for once).
  public static func drawOnce(saving path: String?, fetch: @escaping Fetch, console: Console) async -> Int32 {
    let answer = Locked<Result<String, any Error>?>(nil)
    let once: Fetch = {
      answer.withLock { kept in
        if let kept { return kept }
        let fetched = fetch()
        kept = fetched
        return fetched
      }
    }
    let statements: [AttachStatement] = (path.map { [.save($0)] } ?? []) + [.draw(names: [], until: nil, tick: nil)]
    return await run(statements, fetch: once, console: console)
  }

  static func run(_ statements: [AttachStatement], fetch: Fetch, console: Console) async -> Int32 {
    let shell = Shell(console: console, interactive: false, virtualTime: false)
    defer { shell.engine.close() }
    for statement in statements {
      if case .sleep(let duration) = statement {
        try? await Task.sleep(for: duration)
        if Task.isCancelled { return 130 }
        continue
      }
      if case .top = statement, isatty(1) == 1 {
        // Live at a terminal: a frame a second, each from the trace as it is then, until Ctrl-C.
        guard await liveTop(fetch: fetch, shell) else { return 1 }
        if Task.isCancelled { return 130 }
        continue
      }
      let text: String
      switch fetch() {
      case .success(let trace): text = trace
      case .failure(let failure):
        console.line("pipesh attach: \(failure)", to: .error)
        return 1
      }
      if case .save(let path) = statement {
        if case .failure(let failure) = TextFile.write(text, to: path, privately: true) {
          shell.engine.commandFailed("save: \(failure)")
        }
        continue
      }
      let recording: TraceFile.Recording
      switch TraceFile.parse(text) {
      case .success(let parsed): recording = parsed
      case .failure(let problem):
        console.line("pipesh attach: the program answered with no trace: \(problem.message)", to: .error)
        return 1
      }
      switch statement {
      case .jobs: jobs(recording, shell)
      case .tasks:
        tasks(recording, shell, noTask: "no probe has been asked by a task yet (or the trace does not say which)")
        if let note = droppedNote(recording) { shell.console.line(note) }
      case .draw(let names, let until, let tick):
        if draw(recording, names, until: until, tick: tick, shell), let note = droppedNote(recording) {
          shell.console.line(note)
        }
      case .top: for line in top(recording, live: false) { shell.console.line(line) }
      case .why(let from, let to): why(recording, from: from.name, to: to.name, .attached, shell)
      case .sleep, .save: break
      }
    }
    console.flush()
    return shell.engine.hadFailure ? 1 : 0
  }

  /// A probe's lane: its name (with `#2` for a probe's second iteration) and its events.
  struct Lane {
    var name: String
    var events: [(time: Duration, kind: TraceFile.EventKind, task: Int?)] = []

    /// The task that asked it last (nil where the trace says none).
    var askedBy: Int? { events.last { $0.task != nil }?.task }

    /// When it gave each of its elements.
    var elementTimes: [Duration] {
      events.filter { if case .element = $0.kind { true } else { false } }.map(\.time)
    }

    /// How often it was asked for an element.
    var asked: Int { events.count { $0.kind == .asked } }
  }

  /// The probes' lanes in the order the program's recorder first saw them.
  static func lanes(_ recording: TraceFile.Recording) -> [Lane] {
    var index: [[Int]: Int] = [:]
    var lanes: [Lane] = []
    var seen: [String: Int] = [:]
    for event in recording.events {
      guard case .node(let id, let label, let kind, _) = event.what else { continue }
      let key = [event.job, id]
      if index[key] == nil {
        index[key] = lanes.count
        // A name is shown as it is written in the program, its control characters escaped.
        let name = label.showingEveryControlCharacter
        seen[name, default: 0] += 1
        lanes.append(Lane(name: seen[name] == 1 ? name : "\(name) #\(seen[name] ?? 0)"))
      }
      if let at = index[key] { lanes[at].events.append((event.time, kind, event.task)) }
    }
    return lanes
  }

  /// `jobs`: a row per lane: what it is doing, how many elements it gave and how often it was asked,
  /// and when its last event was (from the trace's first).
  static func jobs(_ recording: TraceFile.Recording, _ shell: Shell) {
    let lanes = lanes(recording)
    guard !lanes.isEmpty else {
      return shell.console.line("no probe has recorded anything yet")
    }
    var rows = [["PROBE", "STATE", "ELEMENTS", "ASKED", "TASK", "LAST"]]
    for lane in lanes {
      rows.append([
        lane.name, state(lane), String(lane.elementTimes.count), String(lane.asked),
        lane.askedBy.map(String.init) ?? "",
        lane.events.last.map { $0.time.stampText } ?? "",
      ])
    }
    // A long probe name is shortened to fit the screen, as `jobs` shortens a long pipeline.
    for line in Format.table(rows, fitting: Format.screenWidth, shrinking: 0) { shell.console.line(line) }
    if let note = droppedNote(recording) { shell.console.line(note) }
  }

  /// What a flight recorder's trace says of the events it dropped (nil when it dropped none).
  static func droppedNote(_ recording: TraceFile.Recording) -> String? {
    recording.dropped > 0 ? "(the recorder kept its last events: \(recording.dropped) before them were dropped)" : nil
  }

  /// `tasks`: a row per task that asked a probe (numbered as the trace numbers them, in the order
  /// the recorder first saw each ask): the lanes it asked, the ones it waits on now (its ask not yet
  /// answered), and its last ask's time. A task waiting on a lane whose program has moved on is the
  /// one that outlived its work. `noTask` is said when no ask names its task. `tasks "F.trace"`
  /// shows a saved trace so.
  static func tasks(_ recording: TraceFile.Recording, _ shell: Shell, noTask: String) {
    var order: [Int] = []
    var asked: [Int: [String]] = [:]
    var last: [Int: Duration] = [:]
    let lanes = lanes(recording)
    for lane in lanes {
      for event in lane.events {
        guard let task = event.task else { continue }
        if asked[task] == nil { order.append(task) }
        if !(asked[task] ?? []).contains(lane.name) { asked[task, default: []].append(lane.name) }
        last[task] = max(last[task] ?? .zero, event.time)
      }
    }
    guard !order.isEmpty else { return shell.console.line(noTask) }
    var rows = [["TASK", "ASKED", "WAITING ON", "LAST ASK"]]
    for task in order.sorted() {
      let waiting = lanes.filter { $0.events.last?.kind == .asked && $0.events.last?.task == task }.map(\.name)
      rows.append([
        String(task), (asked[task] ?? []).joined(separator: ", "),
        waiting.isEmpty ? "-" : waiting.joined(separator: ", "),
        (last[task] ?? .zero).stampText,
      ])
    }
    for line in Format.table(rows, fitting: Format.screenWidth, shrinking: 1) { shell.console.line(line) }
  }

  /// What a lane is doing now, from its last event.
  static func state(_ lane: Lane) -> String {
    switch lane.events.last?.kind {
    case .finished?: "finished"
    case .failed(let reason)?: "failed: \(reason.showingEveryControlCharacter)"
    case .cancelled?: "cancelled"
    case .asked?: "waiting for an element"
    case .element?, .start?, .sending?, nil: "iterating"
    }
  }

  /// `draw [NAME…]`: the lanes as `draw "F.trace"` draws a saved trace (every iteration of a
  /// probe NAME names); a name no probe has is an error naming those it has. Returns whether it drew.
  static func draw(
    _ recording: TraceFile.Recording, _ names: [Identifier], until: Duration?, tick: Duration?, _ shell: Shell
  ) -> Bool {
    let known = Set(
      recording.events.compactMap { event -> String? in
        if case .node(_, let label, _, _) = event.what { label } else { nil }
      })
    guard !known.isEmpty else {
      shell.engine.commandFailed("draw: no probe has recorded anything yet; sleep 1s first, or draw again")
      return false
    }
    // A name as the views show it (its control characters escaped) names the probe too.
    let byShown = Dictionary(
      known.map { ($0.showingEveryControlCharacter, $0) }, uniquingKeysWith: { first, _ in first })
    let names = names.map { name in
      known.contains(name.name) ? name : byShown[name.name].map { Identifier($0, name.range) } ?? name
    }
    for name in names where !known.contains(name.name) {
      let guess = NameSuggester.suggestion(for: name.name, in: known).map {
        " (did you mean '\($0.showingEveryControlCharacter)'?)"
      }
      let shown = known.sorted().map(\.showingEveryControlCharacter)
      shell.engine.commandFailed(
        "draw: no probe is named '\(name.name.showingEveryControlCharacter)'\(guess ?? ""); the program's are "
          + shown.joined(separator: ", "))
      return false
    }
    let only = names.isEmpty ? nil : Set(names.map(\.name))
    guard !TraceLanes(recording, until: until, only: only).rows.isEmpty else {
      let quoted = names.map { "'\($0.name.showingEveryControlCharacter)'" }
      let which = names.isEmpty ? "the probes have" : quoted.joined(separator: ", ") + " had"
      shell.engine.commandFailed(
        "draw: \(which) no events until \(MarbleLanes.label(until ?? .zero)) from the trace's first; a later until: shows them"
      )
      return false
    }
    shell.drawRecording(recording, named: "the attached program", only: only, tick: tick, until: until)
    return true
  }
}
