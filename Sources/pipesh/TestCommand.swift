import ArgumentParser
import PipeShell
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh test [PATH…] [--junit FILE] [-v]`: a subcommand of pipesh's, when `test` is its first argument.
struct PipeshTest: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
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
    Platform.exit(TestRunner.run(options))
  }
}
