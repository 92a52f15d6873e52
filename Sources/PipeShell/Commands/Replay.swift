import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TextFiles
import TraceFormat
import VirtualTime

extension Commands {
  /// `replay "F.trace" [speed: X | step: true]`: shows a saved trace again as `trace` printed it;
  /// with `speed:`, in time, X times as fast, on the session's clock; with `step: true`, its first
  /// instant, and each `step` the next (`run` the rest).
  struct Replay: ShellCommand {
    static let signature = CommandSignature(
      "replay", .recording, usage: "replay \"F.trace\" [speed: X | step: true]",
      summary:
        "shows a trace saved by trace PIPELINE to: \"F.trace\" again, as trace printed it; speed: X plays it back in time, X times as fast (Ctrl-C stops it); step: true shows its first instant, then each step the next (run shows the rest)"
    )
    static let example = HelpExample("trace from 1 2 | take 1 to: \"/tmp/take.trace\"\nreplay \"/tmp/take.trace\"")
    let path: String
    let speed: Double?
    let step: Bool

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.recording().map { Self(path: $0.path, speed: $0.speed, step: $0.step) }
    }
    var reach: CommandReach { .reads("replay reads a saved trace's file") }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      guard let recording = shell.readTrace(path, command: "replay") else { return }
      let printer = ReplayPrinter(console: shell.console, labels: recording.labels)
      if step {
        let steps = ReplaySteps(path: path, events: recording.events, printer: printer)
        shell.replaySteps = steps
        _ = steps.start(shell)
        return
      }
      guard let speed else {
        for event in recording.events { printer.show(event) }
        return
      }
      await Self.play(recording.events, speed: speed, printer, shell)
    }

    /// Each event after the one before it, the time between them divided by `speed`.
    private static func play(_ events: [TraceFile.Event], speed: Double, _ printer: ReplayPrinter, _ shell: Shell) async
    {
      let stopped = "replay: stopped (Ctrl-C)"
      let driver = shell.engine.sessionDriver
      await shell.engine.waitFor(on: driver, stopped: stopped) {
        var last = Duration.zero
        for event in events {
          let gap = (event.time - last) / speed
          last = event.time
          if gap > .zero {
            if let driver {
              do { try await driver.sleep(until: driver.now.advanced(by: gap)) } catch { return }
            } else {
              do { try await Task.sleep(for: gap) } catch { return }
            }
          }
          printer.show(event)
        }
      }
    }
  }
}

/// Prints a saved trace's events as `trace` printed them: each job's lines aligned to its own
/// labels (a job line of a recorded session gives them), else to the trace's.
final class ReplayPrinter: Sendable {
  private let console: Console
  private let printer: TraceObserver
  private let jobs = Locked<[Int: TraceObserver]>([:])

  init(console: Console, labels: [String]) {
    self.console = console
    self.printer = TraceObserver(console: console, labels: labels)
  }

  func show(_ event: TraceFile.Event) {
    switch event.what {
    case .node(_, let label, let kind, _):
      let printer = jobs.withLock { $0[event.job] } ?? printer
      printer.show(time: event.time, job: event.job, label: label, kind)
    case .task(let id, let label, let kind):
      let printer = jobs.withLock { $0[event.job] } ?? printer
      printer.show(time: event.time, job: event.job, task: id, label: label, kind)
    case .output(let text): console.line(text)
    case .job(_, let labels, _):
      jobs.withLock { $0[event.job] = TraceObserver(console: console, labels: labels) }
    }
  }
}

extension Shell {
  /// A saved trace, read for `command`; nil when it cannot be read or is not one (said, with where).
  func readTrace(_ path: String, command: String) -> TraceFile.Recording? {
    let text: String
    switch TextFile.read(path, maximumBytes: TraceFile.maximumBytes, what: "a trace file") {
    case .success(let read): text = read
    case .failure(let failure):
      engine.commandFailed("\(command): \(failure); give a file that trace PIPELINE to: \"F.trace\" wrote")
      return nil
    }
    switch TraceFile.parse(text) {
    case .success(let recording):
      if recording.dropped > 0 {
        // A flight recorder's trace: what it shows of each lane is its end, not its whole.
        note(
          "\(command): \(path) starts mid-stream: the recorder that wrote it kept only its last events and "
            + "dropped the \(recording.dropped) before them", width: Format.screenWidth)
      }
      return recording
    case .failure(let problem):
      engine.runFailed([problem], in: SourceFile(name: path, text: text))
      return nil
    }
  }
}
