import ArgumentParser
import PipeShell
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Operators such as share() keep their consumers in a Dictionary; with Swift's per-process hash
// seed their order, and so a virtual-time run's output, would differ from run to run. pipesh runs
// itself once more with deterministic hashing so the same script prints the same bytes every time,
// whatever the environment said about hashing (`SWIFT_DETERMINISTIC_HASHING=0` too).
if getenv("SWIFT_DETERMINISTIC_HASHING").map({ String(cString: $0) }) != "1" {
  setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
  // Where the system cannot say where pipesh is, it goes on without (its hashing is not fixed).
  if let executable = Platform.executablePath { execv(executable, CommandLine.unsafeArgv) }
}

/// Runs the parsed command, asynchronous or not (ArgumentParser's `help` is not). A function: in
/// top-level code `run()` would be ParsableCommand's synchronous one even on an async command.
func run(_ parsed: any ParsableCommand) async throws {
  var command = parsed
  if var asynchronous = command as? any AsyncParsableCommand {
    try await asynchronous.run()
  } else {
    try command.run()
  }
}

do {
  // Parsed here, on the main thread, as is the address-space check: an `await` may start the
  // runtime's threads, which a too small address space (`ulimit -v`) keeps libdispatch retrying
  // for ever, so nothing is awaited before the check (--help and --version start no threads).
  let parsed = try Pipesh.parseAsRoot()
  if parsed is PipeshRun, let message = Launcher.addressSpaceTooSmall() {
    FileOutput.error(message)
    exit(2)
  }
  try await run(parsed)
} catch {
  let message = Pipesh.fullMessage(for: error)
  if Pipesh.exitCode(for: error) == .success {
    // --help, help and --version: a write error (`> /dev/full`) is reported like any other output's.
    Console.writeNow(message + "\n")
    exit(0)
  }
  FileOutput.error(message)
  exit(2)
}
