import ArgumentParser
import PipeShell
import PipeshProbe
import TraceFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh attach SOCKET [--save FILE]`: a subcommand of pipesh's, when `attach` is its first argument.
struct PipeshAttach: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "attach",
    abstract: "Draw the probes of a running program whose ProbeRecorder listens on SOCKET.",
    discussion: """
      The program keeps running: pipesh asks its recorder for the trace of its probes as they are \
      now (recorder.listen(onSocket: SOCKET) in the program; PipeshProbe, Docs/probe.md), draws \
      every probe's lane as draw "F.trace" draws a saved trace, and lets go. With --save, the trace \
      is also written to FILE, which replay and draw read.
      Exit status: 0 drawn, 1 nothing listens on SOCKET or it did not answer with a trace.
      """
  )

  @Argument(help: ArgumentHelp("The Unix socket the program's recorder listens on.", valueName: "SOCKET"))
  var socket: String

  @Option(help: ArgumentHelp("Write the trace to FILE too.", valueName: "FILE"))
  var save: String?

  @Flag(help: "Plain output (also when NO_COLOR is set or stdout is not a terminal).")
  var noColor = false

  func run() async throws {
    if noColor { Launcher.turnColourOff() }
    let text: String
    switch ProbeClient.trace(fromSocket: socket, limit: TraceFile.maximumBytes) {
    case .success(let trace): text = trace
    case .failure(let failure):
      FileOutput.error("pipesh attach: \(failure)")
      Glibc.exit(1)
    }
    // The program's elements may be private: a file of --save is written as the user's shell
    // would; without it, a new file of the user's alone (mkstemps: no name another user can take
    // first), removed after the drawing.
    var path = save ?? ""
    let descriptor: Int32
    if save != nil {
      descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    } else {
      let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
      var template = Array("\(directory)/pipesh-attach-XXXXXX.trace".utf8CString)
      descriptor = mkstemps(&template, 6)
      path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let bytes = Array(text.utf8)
    guard descriptor >= 0, bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count,
      close(descriptor) == 0
    else {
      FileOutput.error("pipesh attach: cannot write \(path): \(String(cString: strerror(errno)))")
      Glibc.exit(1)
    }
    let quoted = path.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] }
    let status = await Launcher.run(
      Launcher.Options(
        file: nil, command: "draw \"\(String(quoted))\"", checkFile: nil, virtualTime: false, stats: false))
    if save == nil { unlink(path) }
    Glibc.exit(status)
  }
}
