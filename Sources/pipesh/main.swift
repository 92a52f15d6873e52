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

      pipesh test [PATH…] [--junit FILE] runs every .pipe file under the PATHs as a test \
      (pipesh test --help). A script named test runs as pipesh ./test.
      pipesh serve [--port N] [--present] serves a page that runs and draws pipelines as you type \
      them, or presents this session to browsers (pipesh serve --help). A script named serve runs \
      as pipesh ./serve.
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
    Glibc.exit(status)
  }
}

/// `pipesh test [PATH…] [--junit FILE] [-v]`: dispatched when `test` is pipesh's first argument.
struct PipeshTest: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipesh test",
    abstract: "Run every .pipe file under the PATHs as a test.",
    discussion: """
      Every .pipe file under the PATHs (searched recursively, skipping directories whose names \
      start with '.') is a test; a PATH that is a file is a test whatever its name; no PATH: the \
      current directory. Each runs on the virtual clock, in its own directory, with standard input \
      empty, as many at once as there are cores. A test passes when its run ends with status 0: \
      every expectation held and nothing failed.
      pipesh prints a line per file in the order of their paths (PASS or FAIL, the path, how many \
      expectations held or failed), a failing file's standard error and output under its line, \
      and 'N passed, N failed' last.
      Exit status: 0 every test passed, 1 a test failed, 2 a PATH or the JUnit file cannot be used, \
      130 interrupted (the tests running are interrupted too).
      Docs/testing.md says more.
      test is a command only as pipesh's first argument: a script named test runs as pipesh ./test.
      """
  )

  @Argument(help: ArgumentHelp("A .pipe file, or a directory to search for them.", valueName: "PATH"))
  var paths: [String] = []

  @Option(
    help: ArgumentHelp(
      "Also write the results as JUnit XML to FILE: a testsuite per file, a testcase per expectation.",
      valueName: "FILE"))
  var junit: String?

  @Flag(name: .customShort("v"), help: "Show every file's output, with a line for each expectation that holds.")
  var verbose = false

  @Option(
    help: ArgumentHelp(
      "Stop a file still running after SECONDS (0: no limit); it fails.", valueName: "SECONDS"))
  var timeout: Double = 60

  @Flag(help: "Plain output (also when NO_COLOR is set or stdout is not a terminal).")
  var noColor = false

  func validate() throws {
    guard timeout >= 0, timeout.isFinite, timeout < 1e9 else {
      throw ValidationError("--timeout takes seconds, 0 or more (0: no limit), such as --timeout 120")
    }
  }

  func run() {
    if noColor { Launcher.turnColourOff() }
    let options = TestRunner.Options(
      paths: paths, junit: junit, verbose: verbose, timeLimit: timeout == 0 ? nil : timeout)
    Glibc.exit(TestRunner.run(options))
  }
}

/// `pipesh serve [--port N] [--present]`: dispatched when `serve` is pipesh's first argument.
struct PipeshServe: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipesh serve",
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
      Exit status: 1 the port is in use, 2 pipesh-serve is missing or a usage error.
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

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port takes a port number from 0 to 65535 (0: any free port), such as --port 8080")
    }
    if virtualTime && !present { throw ValidationError("--virtual-time goes with --present") }
  }

  func run() async {
    if noColor { Launcher.turnColourOff() }
    let status = await Serve.run(Serve.Options(port: port, present: present), virtualTime: virtualTime)
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

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "test" {
  do {
    let command = try PipeshTest.parse(Array(CommandLine.arguments.dropFirst(2)))
    command.run()
  } catch {
    if PipeshTest.exitCode(for: error) == .success {
      Console.writeNow(PipeshTest.fullMessage(for: error) + "\n")
      exit(0)
    }
    FileOutput.error(PipeshTest.fullMessage(for: error))
    exit(2)
  }
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "serve" {
  do {
    let command = try PipeshServe.parse(Array(CommandLine.arguments.dropFirst(2)))
    await command.run()
  } catch {
    if PipeshServe.exitCode(for: error) == .success {
      Console.writeNow(PipeshServe.fullMessage(for: error) + "\n")
      exit(0)
    }
    FileOutput.error(PipeshServe.fullMessage(for: error))
    exit(2)
  }
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
