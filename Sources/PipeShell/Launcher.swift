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

/// Writes to standard error without Foundation.
public enum FileOutput {
  public static func error(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
  }
}

/// Starts pipesh in the mode its arguments ask for, and returns the exit status.
public enum Launcher {
  /// `--no-color`: nothing pipesh prints is coloured.
  public static func turnColourOff() {
    Paint.turnOff()
  }

  public struct Options: Sendable {
    public var file: String?
    public var command: String?
    public var checkFile: String?
    public var virtualTime: Bool
    public var stats: Bool
    /// Print the Swift program instead of running.
    public var emitSwift: Bool
    /// Print one web page of the run: its output, and its pictures (`--html`).
    public var html: Bool
    /// Save every job's events and printed lines to this file, as `trace … to:` does (`--record`).
    public var record: String?
    /// With `emitSwift`: the plain program, without pipesh's per-element checks (`--plain`).
    public var plain = false
    /// Print the script's expectations as a Swift Testing file instead of running (`--emit-test`).
    public var emitTest = false
    /// `-v`: a line for each expectation that holds.
    public var verbose = false
    /// `--expectations FILE`: append a JSON line per expectation checked (what `pipesh test` reads).
    public var expectationsFile: String?
    /// `--page` (hidden): print the fragment of `pipesh serve`'s page for the script (`Page`).
    public var page = false

    public init(
      file: String?, command: String?, checkFile: String?, virtualTime: Bool, stats: Bool, emitSwift: Bool = false,
      html: Bool = false, record: String? = nil
    ) {
      self.html = html
      self.record = record
      self.file = file
      self.command = command
      self.checkFile = checkFile
      self.virtualTime = virtualTime
      self.stats = stats
      self.emitSwift = emitSwift
    }
  }

  public static func run(_ options: Options) async -> Int32 {
    let console = Console()
    if let path = options.checkFile {
      let text: String
      switch TextFile.read(path) {
      case .success(let read): text = read
      case .failure(let failure):
        FileOutput.error("error: \(failure)")
        return 2
      }
      let source = SourceFile(name: path, text: Shell.strippingShebang(text))
      let diagnostics = Shell.check(source)
      if !diagnostics.isEmpty {
        FileOutput.error(DiagnosticFormatter.render(diagnostics, in: source, decorator: Paint.diagnostics(for: 2)))
      }
      return diagnostics.isEmpty ? 0 : 2
    }
    let source: SourceFile
    if let path = options.file {
      switch TextFile.read(path) {
      case .success(let text): source = SourceFile(name: path, text: Shell.strippingShebang(text))
      case .failure(let failure):
        FileOutput.error("error: \(failure)")
        return 2
      }
    } else if let text = options.command {
      source = SourceFile(name: "<-c>", text: text)
    } else if isatty(0) == 1 && !options.emitSwift && !options.emitTest {
      let shell = Shell(console: console, interactive: true, virtualTime: options.virtualTime)
      let recorder = record(shell, options, name: "<interactive>")
      let status = await InteractiveShell(shell: shell).run()
      if options.stats { printStats(shell) }
      return save(recorder, options, status: status, console)
    } else {
      switch TextFile.read(descriptor: 0) {
      case .success(let text): source = SourceFile(name: "<stdin>", text: text)
      case .failure(let failure):
        FileOutput.error("error: cannot read the script from standard input: \(failure)")
        return 2
      }
    }
    if options.emitSwift { return await Shell.emitSwift(source, console: console, plain: options.plain) }
    if options.emitTest { return await Shell.emitTest(source, console: console) }
    if options.page { return await Page.run(source, console: console) }
    let shell = Shell(console: console, interactive: false, virtualTime: options.virtualTime)
    shell.expectations.verbose = options.verbose
    let recorder = record(shell, options, name: source.name ?? "<stdin>")
    if options.html {
      let report = Report(title: source.name ?? "pipesh")
      shell.report = report
      console.setLineWriter { text, stream in report.addLine(text, error: stream == .error) }
    }
    let signal = InterruptSignal { shell.engine.interrupt() }
    let termination = TerminationSignals(flushing: console)
    let status = await shell.engine.runScript(source)
    shell.engine.close()
    withExtendedLifetime((signal, termination)) {}
    if options.stats { printStats(shell) }
    if let report = shell.report {
      console.setLineWriter(nil)
      Console.writeNow(report.html)
    }
    var ended = status
    if let file = options.expectationsFile {
      let lines = shell.expectations.outcomes.map { $0.json + "\n" }.joined()
      if case .failure(let failure) = TextFile.append(lines, to: file) {
        console.line("error: --expectations: \(failure)", to: .error)
        ended = max(ended, 1)
      }
    }
    return save(recorder, options, status: ended, console)
  }

  /// Under an address-space limit too small for the Swift runtime's threads (`ulimit -v 50000`), a
  /// thread's allocation fails and libdispatch waits and retries for ever: pipesh would hang
  /// without a word. glibc reserves 64 MB of address space for each thread's malloc arena (up to 8
  /// a core), and the runtime starts a thread a core and a few more: 96 MB, and 64 MB a thread.
  public static func addressSpaceTooSmall() -> String? {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
    let threads = rlim_t(min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 64) + 3)
    let floor: rlim_t = (96 << 20) + threads * (64 << 20)
    guard limit.rlim_cur < floor else { return nil }
    return "error: pipesh needs at least \(floor >> 20) MB of address space here (for its threads' memory), "
      + "and the limit is \(limit.rlim_cur >> 10) kB: raise it (ulimit -v \(floor >> 10)) or lift it "
      + "(ulimit -v unlimited)"
  }

  /// `--record FILE`: a recorder that sees every job of the session from its start.
  private static func record(_ shell: Shell, _ options: Options, name: String) -> TraceRecorder? {
    guard options.record != nil else { return nil }
    let recorder = TraceRecorder(
      printer: nil, header: TraceFile.header(pipeline: name, virtualClock: options.virtualTime, labels: []))
    shell.engine.record(everyJobInto: recorder)
    return recorder
  }

  /// Writes the recording when the session ends: a file that cannot be written makes the status 1.
  private static func save(_ recorder: TraceRecorder?, _ options: Options, status: Int32, _ console: Console) -> Int32 {
    guard let recorder, let file = options.record else {
      console.flush()
      return status
    }
    let (text, kept, dropped) = recorder.saved
    var status = status
    switch TextFile.write(text, to: file) {
    case .success:
      if dropped > 0 {
        console.line(
          "pipesh: the \(dropped) events after the first \(kept) are not in \(file) (\(TraceFile.limits))", to: .error)
      }
    case .failure(let failure):
      console.line("error: --record: \(failure); give a path in a directory you can write to", to: .error)
      status = max(status, 1)
    }
    console.flush()
    return status
  }

  /// `--stats`: what is still alive when pipesh ends, as `stats` says it.
  static func printStats(_ shell: Shell) {
    shell.console.line(
      "stats: \(shell.liveTasksText) · \(shell.liveNodesText)", to: .error)
  }

}
