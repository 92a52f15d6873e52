import Foundation
import Launch
import Testing

/// The one launcher: what a child starts with, and how it is waited for and stopped.
@Suite(.serialized)
struct LaunchTests {
  static func shell(_ script: String, _ configure: (inout Launch) -> Void = { _ in }) throws -> ChildProcess {
    var launch = Launch("/bin/sh", arguments: ["sh", "-c", script])
    configure(&launch)
    return try launch.start().get()
  }

  static func scratch() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  @Test func anExitAndASignalAreTold() throws {
    #expect(try Self.shell("exit 3").wait() == .exited(3))
    #expect(try Self.shell("kill -TERM $$").wait() == .signalled(SIGTERM))
    #expect(ChildProcess.Termination.signalled(SIGTERM).status == 128 + SIGTERM)
  }

  /// Files open from the caller's directory, then the child changes to its own; stdin is empty.
  @Test func theChildsDescriptorsAndDirectory() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let child = try Self.shell("pwd; cat; echo said >&2; ls /proc/self/fd | wc -l") {
      $0.directory = "/"
      $0.standardInput = .nullDevice
      $0.standardOutput = .file(directory + "/out")
      $0.standardError = .file(directory + "/err")
      $0.closesOtherDescriptors = true
    }
    #expect(child.wait() == .exited(0))
    let out = try String(contentsOfFile: directory + "/out", encoding: .utf8).split(separator: "\n")
    #expect(out.first == "/")
    // 0, 1, 2 and ls's own directory descriptor: none of the test's.
    #expect(out.last.map { $0.trimmingCharacters(in: .whitespaces) } == "4")
    #expect(try String(contentsOfFile: directory + "/err", encoding: .utf8) == "said\n")
  }

  /// A signal this process ignores is at its default in the child.
  @Test func signalsStartAtTheirDefault() throws {
    let previous = signal(SIGUSR1, SIG_IGN)
    defer { signal(SIGUSR1, previous) }
    #expect(try Self.shell("kill -USR1 $$; exit 0").wait() == .signalled(SIGUSR1))
  }

  /// (`termination()` is not tested here: its reaper takes every child of the test process.)
  @Test func aGroupOfItsOwnIsKilledWhole() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // The sleep holds the only write end of a FIFO: its end is the FIFO's end, with no polling.
    let fifo = directory + "/sleeping"
    #expect(mkfifo(fifo, 0o600) == 0)
    let child = try Self.shell("sleep 300 > '\(fifo)' & wait") { $0.ownProcessGroup = true }
    // Opens once the sleep's side has opened it: the sleep has started.
    let reading = open(fifo, O_RDONLY)
    try #require(reading >= 0)
    defer { close(reading) }
    #expect(child.poll() == .running)
    child.signal(SIGKILL, group: true)
    #expect(child.wait() == .signalled(SIGKILL))
    #expect(child.poll() == .lost)
    // The sleep it started went with it: the FIFO ends (a generous bound, not a wait for time).
    var event = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
    try #require(poll(&event, 1, 60_000) == 1, "the sleep still runs a minute after its group was killed")
    var byte: UInt8 = 0
    #expect(read(reading, &byte, 1) == 0, "the sleep still holds the FIFO open")
  }

  @Test func aMissingProgramSaysWhy() {
    let launched = Launch("/nonexistent/program", arguments: ["program"]).start()
    #expect(throws: LaunchFailure.self) { try launched.get() }
    if case .failure(let failure) = launched {
      #expect(failure.description == "cannot start /nonexistent/program: No such file or directory")
    }
  }
}
