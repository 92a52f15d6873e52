import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every wait of a script stops on Ctrl-C (SIGINT), with status 130: a foreground job, the wait for
/// background jobs at the end of the script, and `load` of a FIFO nobody writes to. Each script
/// prints `ready` first, so the signal comes once it runs.
@Suite("Ctrl-C stops every wait")
struct InterruptTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let script: String
    var testDescription: String { (arguments + [script]).joined(separator: " ") }
  }

  static let cases: [Case] = [["--virtual-time"], []].flatMap { arguments in
    [
      "timer 1 | flatMapLatest { never }",
      "merge(from 3, from 4) | flatMapLatest { timer 1 | flatMapLatest { never } }",
      "timer 1 | drain &",
      "timer 1 | flatMapLatest { timer 0.5 } | drain &",
    ].map { Case(arguments: arguments, script: "from \"ready\"\n" + $0) }
  }

  @Test(arguments: cases)
  func sigintEndsTheScript(_ test: Case) throws {
    let result = try Self.interrupted(test.arguments + ["-c", test.script])
    #expect(!result.timedOut, "did not end after SIGINT")
    #expect(result.status == 130, "\(result.stderr)")
  }

  /// `load` of a FIFO with no writer waits for one without blocking the shell: Ctrl-C ends it.
  @Test func loadOfAFifoWithoutWriterStops() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-fifo-\(UUID())").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    for script in ["load \"\(path)\"", "lines \"\(path)\" | print"] {
      let result = try Self.interrupted(["-c", "from \"ready\"\n" + script])
      #expect(!result.timedOut, "\(script) did not end after SIGINT")
      #expect(result.status == 130, "\(script): \(result.stderr)")
    }
  }

  /// A script whose background jobs never end says so at once, naming each job and why, and
  /// ends on Ctrl-C; on the virtual clock it stops the clock rather than spin.
  @Test(arguments: [["--virtual-time"], []])
  func aScriptSaysWhichJobsNeverEnd(_ clock: [String]) throws {
    let script = "timer 1 | drain &\nchannel c of: Int | print &\nfrom 1 | into c"
    let marker = clock.isEmpty ? "Ctrl-C stops it" : "Ctrl-C ends the script"
    let result = try Self.interruptedWhenItSays(marker, clock + ["-c", script])
    #expect(!result.timedOut, "did not end after SIGINT")
    #expect(result.status == 130)
    let told = [
      "pipesh: the script is done, but job 1 may run for ever: timer 1 never ends by itself, and nothing after it ends it (timer 1 | drain)",
      "pipesh: the script is done, but job 2 may run for ever: nothing can send to or close channel c of: Int any more (channel c of: Int | print)",
    ]
    for line in told { #expect(result.stdout.contains(line + "\n"), "\(result.stdout)") }
  }

  /// A job that ignores its cancellation (`work … cooperative: false`, waiting 1000 s) cannot keep
  /// the user: the first Ctrl-C says what still runs and why, the second ends the script (130).
  @Test func aSecondSigintEndsAScriptWhoseJobIgnoresTheCancel() throws {
    // `ready` comes from the job itself, a second after its work began waiting; a SIGINT that still
    // comes before the wait began (a loaded machine) ends the script at once, truly: then again.
    let script = "merge(from \"x\" | work 1000 cooperative: false, timer 1 | take 1 | map { \"ready\" }) | print"
    let said = "pipesh: [1] is cancelled but still runs: work 1000 cooperative: false ignores cancellation"
    var run = try Self.interruptedTwice(script, saying: said)
    for _ in 0..<9 where run.interrupts == 1 && run.status == 130 {
      run = try Self.interruptedTwice(script, saying: said)
    }
    #expect(run.interrupts == 2, "\(run.output)")
    #expect(run.output.contains(said + " and ends only when its wait does; Ctrl-C again quits now"), "\(run.output)")
    #expect(run.status == 130)
  }

  /// Runs `script`, sends SIGINT once it printed `ready`, and again once it printed `said`.
  static func interruptedTwice(
    _ script: String, saying said: String
  ) throws -> (
    output: String, interrupts: Int, status: Int32
  ) {
    let process = Process()
    process.executableURL = Pipesh.executable
    process.arguments = ["-c", script]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    var seen = ""
    var interrupts = 0
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += String(decoding: chunk, as: UTF8.self)
      if interrupts == 0, seen.contains("ready\n") {
        interrupts = 1
        kill(process.processIdentifier, SIGINT)
      } else if interrupts == 1, seen.contains(said) {
        interrupts = 2
        kill(process.processIdentifier, SIGINT)
      }
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return (seen, interrupts, process.terminationStatus)
  }

  /// A Ctrl-C as soon as pipesh takes SIGINT, even with SIGINT ignored by whoever started it (a
  /// job started with `&` by a script), and while it opens a script that is a FIFO with no writer
  /// (`pipesh FIFO`, `pipesh --check FIFO`): each ends it with status 130. pipesh takes SIGINT
  /// before its main code runs, so the FIFO cases wait in vain (and fail) without that.
  @Test func sigintAtOnceEndsPipesh() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-fifo-\(UUID())").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    for arguments in [
      ["-c", "timer 1 | print"], ["--virtual-time", "-c", "timer 1 | print"], [path], ["--check", path],
    ] {
      let quoted = ([Pipesh.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "trap '' INT; exec \(quoted)"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let ended = DispatchSemaphore(value: 0)
      process.terminationHandler = { _ in ended.signal() }
      try process.run()
      let pid = process.processIdentifier
      // SIGINT is sent once pipesh catches it (its SigCgt mask in /proc), at most 10 s later. The
      // process is `sh` first, which catches SIGINT too (a SIGINT sent then would be taken by sh,
      // and pipesh, started with it ignored, would never see it), and then pipesh before it runs
      // itself again with deterministic hashing: it is asked only once it is that last pipesh.
      var caught = false
      for _ in 0..<10_000 where !caught {
        caught = Self.isTheLastPipesh(pid) && Self.catchesSIGINT(pid)
        if !caught { usleep(1000) }
      }
      #expect(caught, "\(arguments): pipesh does not catch SIGINT")
      kill(pid, caught ? SIGINT : SIGKILL)
      // Bounded: a SIGINT pipesh lost would otherwise hold the suite until its limit.
      if ended.wait(timeout: .now() + 20) == .timedOut {
        Issue.record("\(arguments): pipesh did not end 20 s after SIGINT")
        kill(pid, SIGKILL)
      }
      process.waitUntilExit()
      #expect(process.terminationStatus == 130, "\(arguments)")
    }
  }

  /// Whether the process runs pipesh (not the `sh` that starts it) with deterministic hashing, as
  /// pipesh runs itself again to have it (then it runs its script).
  static func isTheLastPipesh(_ pid: pid_t) -> Bool {
    guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
      URL(fileURLWithPath: exe).resolvingSymlinksInPath().path
        == Pipesh.executable.resolvingSymlinksInPath().path,
      let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
    else { return false }
    return environment.split(separator: 0).contains { Array($0) == Array("SWIFT_DETERMINISTIC_HASHING=1".utf8) }
  }

  /// Whether the process's SIGINT handler is installed (bit 2 of SigCgt in /proc/PID/status).
  static func catchesSIGINT(_ pid: pid_t) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
      let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << (UInt64(SIGINT) - 1)) != 0
  }

  /// Runs pipesh through `sh` (standard error joined to standard output), sends SIGINT once the output shows `marker`.
  static func interruptedWhenItSays(_ marker: String, _ arguments: [String]) throws -> Pipesh.Result {
    let quoted = ([Pipesh.executable.path] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let command = "exec " + quoted.joined(separator: " ") + " 2>&1"
    return try Pipesh.run(
      ["-c", command], limit: 20, executable: URL(fileURLWithPath: "/bin/sh"), interruptWhen: marker)
  }

  /// Runs pipesh, sends SIGINT once it printed `ready`, and waits for its end (killed after 20 s).
  static func interrupted(_ arguments: [String]) throws -> Pipesh.Result {
    try Pipesh.run(arguments, limit: 20, interruptWhen: "ready\n")
  }
}
