import Dispatch
import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh --page FILE`: what `pipesh serve`'s page shows of a script, run as `--html` runs it,
/// printed as the fragment that goes inside the page's body (`Report.fragment`): what it printed,
/// errors in red with their carets, and a picture for every `draw`, `trace` and `compare`. Every
/// foreground pipeline statement is drawn as `draw P demand: true … to:` would draw it (bounded by
/// draw's horizon, so one that never ends still gives its picture and ends), with what it prints
/// and its task tree as `tasks N` shows it;
/// its `marble "…"` lanes are annotated for the page to edit (`EditableMarble`). Nothing in the
/// script may read or write a file or the terminal (`PageSandbox`): a shared link cannot touch
/// the user's files.
public enum Page {
  /// The events a page's run may make (a terminal's draw: 100,000), so that a pipeline that floods
  /// its horizon (`timer 1ms | filter { $0 < 0 }`) is drawn in a second or two, not stopped by the
  /// server after 10.
  static let eventLimit = 10_000

  /// The resident memory a page's run may reach (Docs/serve.md says it): a link's script
  /// (`range 1 1000000000 | collect &`, then `wait`) must not take the server's machine with it.
  static let memoryLimit = 512 << 20

  static let memoryMessage =
    "error: the page's run was stopped: it used more than \(memoryLimit >> 20) MB of memory (a pipeline that keeps every element, such as collect over an endless or huge source?); run it with pipesh FILE instead"

  /// Runs `source` and prints its fragment; returns the script's status (2 when it does not
  /// check, or asks for a file).
  public static func run(_ source: SourceFile, console: Console) async -> Int32 {
    // A page's run must come within the page's patience (its server stops a run after 10 s): a
    // picture of more events than this is drawn up to them, with draw's note that it stopped.
    DrawObserver.limitEvents(to: eventLimit)
    let shell = Shell(console: console, interactive: false, virtualTime: true)
    let report = Report(title: source.name ?? "pipesh")
    shell.report = report
    shell.page = source
    // A run that reaches the page's memory bound is stopped as Ctrl-C stops it, and says so; what
    // its jobs print as they end (a collect's partial array) is left out.
    let memory = MemoryBound(bytes: memoryLimit) { _ = shell.engine.interrupt() }
    console.setLineWriter { text, stream in
      guard !memory.reached else { return }
      report.addLine(text, error: stream == .error)
    }
    // Each pipeline's picture, then its task tree (`tasks N`): the tasks its operators started.
    shell.engine.drawForegroundPipelines { [weak shell] pipeline in
      guard let shell else { return }
      await shell.draw(pipeline, demand: true, printing: true)
      guard let last = shell.engine.jobIDs.max(), let job = shell.engine.snapshot(ofJob: last) else { return }
      for line in TaskView.lines(job) { shell.console.line(line) }
    }
    let status: Int32
    let (statements, _, diagnostics) = Engine.parseAndCheck(source, in: shell.engine.environment)
    let refused = diagnostics.isEmpty ? PageSandbox.refusals(statements, in: source) : []
    if !refused.isEmpty {
      shell.engine.report(refused, in: source)
      status = 2
    } else {
      let signal = InterruptSignal { shell.engine.interrupt() }
      let termination = TerminationSignals(flushing: console)
      let ended = await shell.engine.runScript(source)
      status = memory.reached ? 1 : ended
      withExtendedLifetime((signal, termination)) {}
    }
    memory.stop()
    if memory.reached {
      console.flush()
      report.addLine(memoryMessage, error: true)
    }
    shell.engine.close()
    console.flush()
    console.setLineWriter(nil)
    Console.writeNow(report.fragment)
    return status
  }
}

extension Page {
  /// The page's passes over a checked script that need no run: its sandbox's refusals, and the
  /// marble stages its annotation pass finds in each pipeline. The fuzzer (`PipeFuzz`) takes user
  /// input through them, as through every other pass.
  public static func passesBeforeRunning(_ statements: [CheckedStatement], in source: SourceFile) -> [Diagnostic] {
    for statement in statements {
      switch statement {
      case .run(let pipeline, _): _ = Shell.annotatingMarbles([], of: pipeline, in: source)
      case .command(let command, _):
        switch command.command.reach {
        case .readsPipeline(let pipeline), .runs(let pipeline, _):
          _ = Shell.annotatingMarbles([], of: pipeline, in: source)
        case .session, .reads, .realClock: break
        }
      case .binding: break
      }
    }
    return PageSandbox.refusals(statements, in: source)
  }
}

/// What `pipesh --page` refuses before anything runs: every statement that would read or write a
/// file or the terminal, and `clock real`. Each is a diagnostic where it is written, as the
/// checker's are.
enum PageSandbox {
  /// A statement of a page that reads or writes a file or the terminal.
  static let noFileAccess = DiagnosticID("page-no-file-access")
  /// `clock real` in a page: its runs are all on the virtual clock, so that each ends promptly.
  static let realClock = DiagnosticID("page-real-clock")

  static func refusals(_ statements: [CheckedStatement], in source: SourceFile) -> [Diagnostic] {
    let all = statements.flatMap { statement -> [Diagnostic] in
      switch statement {
      case .run(let pipeline, _): stages(pipeline)
      case .binding: []  // checked where it is used: its stages are the pipeline's there
      case .command(let command, _): refusals(command, in: source)
      }
    }
    // A `let`'s stage used twice is refused once, where the `let` writes it.
    var seen = Set<Diagnostic>()
    return all.filter { seen.insert($0).inserted }
  }

  private static func refusals(_ command: CheckedCommand, in source: SourceFile) -> [Diagnostic] {
    switch command.command.reach {
    case .session, .readsPipeline:
      // `check` and `swift` only read a pipeline; the others touch no file.
      return []
    case .reads(let what):
      return [refusal(what, at: command.range)]
    case .runs(let pipeline, nil):
      return stages(pipeline)
    case .runs(let pipeline, let file?):
      let at = optionRange(CommandOptions.fileLabel, in: command.range, source) ?? command.range
      return [refusal("\(command.name) … to: \"\(file)\" writes a file; without to: the page shows it", at: at)]
        + stages(pipeline)
    case .realClock:
      return [
        Diagnostic(
          id: realClock, message: "the page runs on the virtual clock: clock real would run the script in real time",
          range: command.range, notes: ["leave it out: time on the page jumps from deadline to deadline"])
      ]
    }
  }

  /// The stages that read a file or standard input, anywhere in the pipeline.
  private static func stages(_ pipeline: CheckedPipeline) -> [Diagnostic] {
    pipeline.allStages.compactMap { stage in
      guard case .operation(let operation) = stage.node else { return nil }
      switch operation.facts.waitsOn {
      case .file: return refusal("\(stage.name) reads a file", at: stage.range)
      case .standardInput: return refusal("\(stage.name) reads standard input", at: stage.range)
      case .nothing, .clock, .send, .forever, .upstream, .upstreamAndClock, .consumer: return nil
      }
    }
  }

  private static func refusal(_ what: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: noFileAccess, message: "the page runs no file access: \(what)", range: range,
      notes: ["a page's script runs on the server for anyone with its link; run it with pipesh FILE instead"])
  }

  /// Where `LABEL:` and its value are written in a command, if they are.
  private static func optionRange(_ label: String, in range: SourceRange, _ source: SourceFile) -> SourceRange? {
    let bytes = Array(source.text.utf8)
    let needle = Array((label + ":").utf8)
    guard range.end <= bytes.count, range.end - range.start >= needle.count else { return nil }
    var index = range.end - needle.count
    while index >= range.start {
      if Array(bytes[index..<(index + needle.count)]) == needle { return SourceRange(index, range.end) }
      index -= 1
    }
    return nil
  }
}

/// Watches the process's peak resident memory (every 10 ms, on a queue of its own, so a job that
/// holds the clock's thread cannot stop it): the first time it passes `bytes`, `onReached` is
/// called to stop the run. If the process is still running 5 s later, or its memory reaches twice
/// the bound, it writes the message as the page's fragment and exits with status 1: the bound
/// holds even when stopping does not free memory.
final class MemoryBound: Sendable {
  nonisolated(unsafe) private let timer: any DispatchSourceTimer
  private let state = Locked<(reached: Bool, since: ContinuousClock.Instant?)>((false, nil))

  init(bytes: Int, onReached: @escaping @Sendable () -> Void) {
    timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pipesh.page.memory"))
    timer.schedule(deadline: .now(), repeating: .milliseconds(10))
    timer.setEventHandler { [state] in
      let peak = Self.peakResidentBytes()
      let now = ContinuousClock.now
      let first = state.withLock { state -> Bool? in
        if let since = state.since { return since.duration(to: now) > .seconds(5) || peak > 2 * bytes ? false : nil }
        guard peak > bytes else { return nil }
        state = (true, now)
        return true
      }
      switch first {
      case true?: onReached()
      case false?:
        Console.writeNow("<pre class=\"output\"><span class=\"error\">\(Page.memoryMessage)</span></pre>\n")
        _exit(1)
      case nil: break
      }
    }
    timer.resume()
  }

  /// Whether the run reached the bound.
  var reached: Bool { state.withLock { $0.reached } }

  func stop() { timer.cancel() }

  /// The process's peak resident set size (`getrusage`: kilobytes on Linux, bytes on Darwin).
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
      guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
      return Int(usage.ru_maxrss)
    #else
      guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
      return Int(usage.ru_maxrss) * 1024
    #endif
  }
}
