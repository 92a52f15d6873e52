import ArgumentParser
import PipeShell
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh serve [--port N] [--present] [F.trace]`: a subcommand of pipesh's, when `serve` is its first argument.
struct PipeshServe: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve a page, on 127.0.0.1 only, that runs and draws the pipelines typed into it.",
    discussion: """
      pipesh serve starts pipesh-serve, the web server built beside pipesh \
      (swift build -c release --product pipesh-serve; Scripts/pipesh serve builds it), and prints its URL. \
      Each browser tab is a session of its own: as you type, the page shows the script's output and \
      errors, and draws every pipeline as draw P demand: true draws it; a marble "…" lane can be \
      edited by dragging its marbles. The page runs no file access. The address carries the script, \
      to share. Ctrl-C stops the server.
      With --present, the browsers that open the URL watch this shell's session instead, read-only \
      and live: the lines typed, what the session prints, top while jobs run, and the latest picture; \
      there Ctrl-C cancels the job at the prompt, and quit (or Ctrl-D) ends the shell and the presentation.
      With a saved trace (a probe's recorder.write(toFile:), pipesh attach --save, or trace P to: "F.trace"), \
      the server also serves its drawing at /trace, the page draw "F.trace" to: "F.html" writes, drawn \
      before the server starts.
      Exit status: 1 the port is in use, 2 pipesh-serve is missing, the trace cannot be drawn, or a usage error.
      help serve, in the shell, says more.
      """
  )

  @Option(help: ArgumentHelp("Listen on port N of 127.0.0.1 (0: any free port).", valueName: "N"))
  var port: Int = 8080

  @Flag(help: "Let the browsers watch this interactive session, read-only, instead of editing pages of their own.")
  var present = false

  @Flag(help: "With --present: run the session's pipelines on the virtual clock.")
  var virtualTime = false

  @Flag(help: "Plain output (also when NO_COLOR is set or stdout is not a terminal).")
  var noColor = false

  @Argument(help: ArgumentHelp("A saved trace to draw at /trace.", valueName: "F.trace"))
  var trace: String?

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port takes a port number from 0 to 65535 (0: any free port), such as --port 8080")
    }
    if virtualTime && !present { throw ValidationError("--virtual-time goes with --present") }
    if trace != nil && present {
      throw ValidationError("a trace is served without --present: pipesh serve F.trace draws it at /trace")
    }
    if trace?.isEmpty == true { throw ValidationError("give the trace's file, as in pipesh serve search.trace") }
  }

  func run() async {
    if noColor { Launcher.turnColourOff() }
    let status = await Serve.run(Serve.Options(port: port, present: present, trace: trace), virtualTime: virtualTime)
    Platform.exit(status)
  }
}
