import ArgumentParser
import PipeShell
import PipeshProbe
import Platform
import TraceFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh attach SOCKET [-c TEXT] [--save FILE]`: a subcommand of pipesh's, when `attach` is its
/// first argument.
struct PipeshAttach: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "attach",
    abstract: "Draw the probes of a running program whose ProbeRecorder listens on SOCKET.",
    discussion: """
      The program keeps running: pipesh asks its recorder for the trace of its probes as they are \
      now (recorder.listen(onSocket: SOCKET) in the program; PipeshProbe, Docs/probe.md), draws \
      every probe's lane as draw "F.trace" draws a saved trace, and lets go. With --save, the trace \
      is also written to FILE, which replay and draw read.
      With -c TEXT, pipesh runs TEXT's statements instead, each asking for the trace as it is then: \
      jobs (a row per probe: its state, elements, asks, asking task and last event), tasks (a row \
      per task that asked a probe, and what it waits on), top (a row per probe with its elements a \
      second, a frame a second at a terminal until Ctrl-C), why FROM TO (the elements of probe FROM \
      that did not come out at probe TO, after it), draw [NAME...] [until: D] \
      [tick: D] (the probes named, or all), sleep D (the program runs on meanwhile) and save "F". \
      At a terminal, without -c or --save, it gives a prompt for those statements instead of one \
      drawing; quit, exit or Ctrl-D detaches.
      Exit status: 0 drawn, 1 nothing listens on SOCKET, it did not answer with a trace, or a \
      statement failed, 2 TEXT has errors.
      """
  )

  @Argument(help: ArgumentHelp("The Unix socket the program's recorder listens on.", valueName: "SOCKET"))
  var socket: String

  @Option(name: .customShort("c"), help: ArgumentHelp("Run the statements of TEXT against it.", valueName: "TEXT"))
  var command: String?

  @Option(help: ArgumentHelp("Write the trace to FILE too.", valueName: "FILE"))
  var save: String?

  @Flag(help: "Plain output (also when NO_COLOR is set or stdout is not a terminal).")
  var noColor = false

  func validate() throws {
    if command != nil, save != nil {
      throw ValidationError("give --save or -c TEXT (whose save \"F\" saves), not both")
    }
  }

  func run() async throws {
    if noColor { Launcher.turnColourOff() }
    let socket = self.socket
    let fetch: AttachSession.Fetch = {
      ProbeClient.trace(fromSocket: socket, limit: TraceFile.maximumBytes).mapError { $0 as any Error }
    }
    let console = Console()
    let status =
      if let command {
        await AttachSession.run(command, fetch: fetch, console: console)
      } else if save == nil, isatty(0) == 1, isatty(1) == 1 {
        await AttachSession.prompt(attachedTo: socket, fetch: fetch, console: console)
      } else {
        await AttachSession.drawOnce(saving: save, fetch: fetch, console: console)
      }
    console.flush()
    Platform.exit(status)
  }
}
