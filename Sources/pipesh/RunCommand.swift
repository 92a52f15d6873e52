import ArgumentParser
import PipeShell
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh [run] [FILE | -c TEXT | --check FILE] [flags]`: a script, a text or the interactive shell;
/// pipesh's default subcommand, so `pipesh FILE` is `pipesh run FILE`.
struct PipeshRun: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a .pipe script, the statements of -c TEXT, or the interactive shell.",
    discussion: """
      With no FILE and no -c, pipesh is an interactive shell when standard input is a terminal, \
      and otherwise reads statements from standard input like a script.
      Exit status: 0 success, 1 a pipeline failed, 2 usage or parse/type error, 130 interrupted.
      run is pipesh's default subcommand: pipesh FILE is pipesh run FILE. A script named as a \
      subcommand (run, test, serve, help) runs as pipesh ./test or pipesh run test.
      """
  )

  @Argument(help: "A .pipe script to run.")
  var file: String?

  @Option(name: .customShort("c"), help: ArgumentHelp("Run the statements in TEXT.", valueName: "TEXT"))
  var command: String?

  @Option(name: .customLong("check"), help: ArgumentHelp("Parse and type-check FILE only.", valueName: "FILE"))
  var checkFile: String?

  @Flag(help: "Print the Swift program (main.swift over swift-async-algorithms) that does what FILE or TEXT does.")
  var emitSwift = false

  @Flag(
    help:
      "With --emit-swift: the plain program, without pipesh's per-element checks (checked Int arithmetic, checked arguments from $0), to paste into an app."
  )
  var plain = false

  @Flag(
    help:
      "Print FILE's expectations (expect P == \"DIAGRAM\", expect P prints V…) as a Swift Testing file over swift-async-algorithms and the MarbleTesting library, instead of running it."
  )
  var emitTest = false

  @Flag(
    help:
      "Run FILE or TEXT and print one self-contained web page of the run: its output, with every draw, trace and compare as a picture."
  )
  var html = false

  @Flag(
    help: ArgumentHelp(
      "Run FILE or TEXT on the virtual clock as pipesh serve's page does and print the page's HTML fragment.",
      visibility: .hidden))
  var page = false

  @Option(
    name: .customLong("record"),
    help: ArgumentHelp(
      "Save every job's events and printed lines to FILE (JSON lines, as trace … to: \"F.trace\" does), for replay.",
      valueName: "FILE"))
  var record: String?

  @Flag(help: "Run every pipeline on the virtual clock.")
  var virtualTime = false

  @Flag(help: "Plain output (also when NO_COLOR is set or stdout is not a terminal).")
  var noColor = false

  @Flag(help: "Print live job, task and node counts at exit.")
  var stats = false

  @Flag(name: .customShort("v"), help: "Print a line for each expectation that holds (a failing one is always drawn).")
  var verbose = false

  @Option(
    name: .customLong("expectations"),
    help: ArgumentHelp(
      "Append a JSON line per expectation checked to FILE (what pipesh test reads).", valueName: "FILE",
      visibility: .hidden))
  var expectationsFile: String?

  func validate() throws {
    let modes = [file != nil, command != nil, checkFile != nil].filter { $0 }.count
    if modes > 1 { throw ValidationError("give one of FILE, -c TEXT and --check FILE") }
    if emitSwift && checkFile != nil { throw ValidationError("--emit-swift takes FILE or -c TEXT, not --check") }
    if plain && !emitSwift { throw ValidationError("--plain goes with --emit-swift") }
    if emitTest && (checkFile != nil || emitSwift || html || record != nil) {
      throw ValidationError("--emit-test takes FILE or -c TEXT (not with --check, --emit-swift, --html or --record)")
    }
    if record != nil && (checkFile != nil || emitSwift) {
      throw ValidationError("--record runs FILE or -c TEXT (not with --check or --emit-swift)")
    }
    if html && (file == nil && command == nil || emitSwift) {
      throw ValidationError("--html runs FILE or -c TEXT (not with --check or --emit-swift)")
    }
    if page && (file == nil && command == nil || emitSwift || emitTest || html || record != nil) {
      throw ValidationError(
        "--page runs FILE or -c TEXT (not with --check, --emit-swift, --emit-test, --html or --record)")
    }
  }

  func run() async throws {
    // The address space was checked before this ran (main.swift), before any thread started.
    // A page has no terminal colours.
    if noColor || html || page { Launcher.turnColourOff() }
    var options = Launcher.Options(
      file: file, command: command, checkFile: checkFile, virtualTime: virtualTime, stats: stats,
      emitSwift: emitSwift, html: html, record: record)
    options.verbose = verbose
    options.emitTest = emitTest
    options.plain = plain
    options.expectationsFile = expectationsFile
    options.page = page
    let status = await Launcher.run(options)
    Platform.exit(status)
  }
}
