import ArgumentParser
import PipeRuntime
import PipeShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh`: argument parsing and nothing else.
struct Pipesh: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipesh",
    abstract: "A shell for composing Swift AsyncSequence pipelines.",
    discussion: """
      With no FILE and no -c, pipesh is an interactive shell when standard input is a terminal, \
      and otherwise reads statements from standard input like a script.
      Exit status: 0 success, 1 a pipeline failed, 2 usage or parse/type error, 130 interrupted.
      """,
    version: "pipesh 0.1.0"
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
      "Run FILE or TEXT and print one self-contained web page of the run: its output, with every draw, trace and compare as a picture."
  )
  var html = false

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
    if record != nil && (checkFile != nil || emitSwift) {
      throw ValidationError("--record runs FILE or -c TEXT (not with --check or --emit-swift)")
    }
    if html && (file == nil && command == nil || emitSwift) {
      throw ValidationError("--html runs FILE or -c TEXT (not with --check or --emit-swift)")
    }
  }

  func run() async throws {
    // A page has no terminal colours.
    if noColor || html { Launcher.turnColourOff() }
    var options = Launcher.Options(
      file: file, command: command, checkFile: checkFile, virtualTime: virtualTime, stats: stats,
      emitSwift: emitSwift, html: html, record: record)
    options.verbose = verbose
    options.expectationsFile = expectationsFile
    let status = await Launcher.run(options)
    Glibc.exit(status)
  }
}

// Operators such as share() keep their consumers in a Dictionary; with Swift's per-process hash
// seed their order, and so a virtual-time run's output, would differ from run to run. pipesh runs
// itself once more with deterministic hashing so the same script prints the same bytes every time,
// whatever the environment said about hashing (`SWIFT_DETERMINISTIC_HASHING=0` too).
if getenv("SWIFT_DETERMINISTIC_HASHING").map({ String(cString: $0) }) != "1" {
  setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
  execv("/proc/self/exe", CommandLine.unsafeArgv)
}

do {
  let command = try Pipesh.parse()
  // Before anything starts the runtime's threads (--help and --version, answered while parsing,
  // start none).
  if let message = Launcher.addressSpaceTooSmall() {
    FileOutput.error(message)
    exit(2)
  }
  try await command.run()
} catch {
  let code = Pipesh.exitCode(for: error)
  let message = Pipesh.fullMessage(for: error)
  if code == .success {
    // --help and --version: a write error (`> /dev/full`) is reported like any other output's.
    Console.writeNow(message + "\n")
    exit(0)
  }
  FileOutput.error(message)
  exit(2)
}
