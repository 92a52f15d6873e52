import PipeRuntime
import PipeSyntax

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

    public init(
      file: String?, command: String?, checkFile: String?, virtualTime: Bool, stats: Bool, emitSwift: Bool = false,
      html: Bool = false
    ) {
      self.html = html
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
        FileOutput.error(DiagnosticFormatter.render(diagnostics, in: source, colour: Paint.isOn(for: 2)))
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
    } else if isatty(0) == 1 && !options.emitSwift {
      let shell = Shell(console: console, interactive: true, virtualTime: options.virtualTime)
      let status = await InteractiveShell(shell: shell).run()
      if options.stats { printStats(shell) }
      return status
    } else {
      switch TextFile.read(descriptor: 0) {
      case .success(let text): source = SourceFile(name: "<stdin>", text: text)
      case .failure(let failure):
        FileOutput.error("error: cannot read the script from standard input: \(failure)")
        return 2
      }
    }
    if options.emitSwift { return Shell.emitSwift(source, console: console) }
    let shell = Shell(console: console, interactive: false, virtualTime: options.virtualTime)
    if options.html {
      let report = Report(title: source.name ?? "pipesh")
      shell.report = report
      console.setLineWriter { text, stream in report.addLine(text, error: stream == .error) }
    }
    let signal = InterruptSignal { shell.interrupt() }
    let termination = TerminationSignals(flushing: console)
    let status = await shell.runScript(source)
    shell.close()
    withExtendedLifetime((signal, termination)) {}
    if options.stats { printStats(shell) }
    if let report = shell.report {
      console.setLineWriter(nil)
      Console.writeNow(report.html)
    }
    console.flush()
    return status
  }

  /// `--stats`: what is still alive when pipesh ends, as `stats` says it.
  static func printStats(_ shell: Shell) {
    shell.console.line(
      "stats: tasks: \(Job.liveTasks.load(ordering: .relaxed)) live · \(shell.liveNodesText)", to: .error)
  }

}
