import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `pipesh` on every `.pipe` file in `Scripts/` and compares stdout, stderr and the
/// exit status with what the file's own comments expect:
///
///     #args: --virtual-time        arguments before the file name (or instead of it: see below)
///     #stdin: TEXT                 a line of standard input (\n-joined)
///     #> LINE                      a line of standard output
///     #! LINE                      a line of standard error
///     #= N                         the exit status (0 when absent)
///
/// `#args:` containing `-c` runs the script's non-comment text as `-c TEXT` instead of as a file,
/// and `#args:` containing `--stdin` pipes it on standard input.
@Suite("transcripts")
struct TranscriptTests {
  static let directory: URL = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts")
  }()

  /// The repository's `Examples/`: their comments pin their virtual-time output too.
  static let examples: URL = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples")
  }()

  static func pipeFiles(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".pipe") }.sorted()
  }

  static let scripts = pipeFiles(in: directory)

  @Test("script", arguments: scripts)
  func transcript(_ name: String) throws {
    try Self.check(name, in: Self.directory)
  }

  @Test("example", arguments: pipeFiles(in: examples))
  func example(_ name: String) throws {
    try Self.check(name, in: Self.examples)
  }

  @Test func thereAreTenExamples() {
    #expect(Self.pipeFiles(in: Self.examples).count >= 10)
  }

  static func check(_ name: String, in directory: URL) throws {
    let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    let expectation = Expectation(parsing: text)
    let arguments = expectation.arguments(file: name, text: text)
    let stdin = expectation.arguments.contains("--stdin") ? expectation.body(of: text) : expectation.stdin
    // Fusing synchronous stages must change nothing a script shows: every transcript runs both ways.
    // Under ThreadSanitizer (looking for races, not differences) only unfused, where every stage is
    // a node of its own and the most tasks meet.
    let environments =
      FinishingTests.underThreadSanitizer ? [["PIPESH_FUSION": "off"]] : [[:], ["PIPESH_FUSION": "off"]]
    for environment in environments {
      let result = try Pipesh.run(arguments, stdin: stdin, directory: directory, environment: environment)
      let how = environment.isEmpty ? "" : " (fusion off)"
      #expect(!result.timedOut, "\(name)\(how) did not end")
      #expect(result.stdout == expectation.stdout, "stdout of \(name)\(how)")
      #expect(result.stderr == expectation.stderr, "stderr of \(name)\(how)")
      #expect(result.status == expectation.status, "exit status of \(name)\(how)")
    }
  }

  @Test func thereAreTranscripts() {
    #expect(Self.scripts.count > 40)
  }
}

/// What a transcript file expects.
struct Expectation {
  var arguments: [String] = []
  var stdout = ""
  var stderr = ""
  var status: Int32 = 0
  var stdin: String?

  init(parsing text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#args:") {
        arguments = Self.words(String(line.dropFirst(6)))
      } else if line.hasPrefix("#stdin: ") {
        stdin = (stdin ?? "") + line.dropFirst(8).replacingOccurrences(of: "\\n", with: "\n")
      } else if line == "#>" || line.hasPrefix("#> ") {
        stdout += line.dropFirst(3) + "\n"
      } else if line == "#!" || line.hasPrefix("#! ") {
        stderr += line.dropFirst(3) + "\n"
      } else if line.hasPrefix("#= ") {
        status = Int32(line.dropFirst(3).trimmingCharacters(in: .whitespaces)) ?? -1
      }
    }
  }

  /// The script without the expectation comments.
  func body(of text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { line in !["#>", "#!", "#=", "#args:", "#stdin:"].contains { line.hasPrefix($0) } }
      .joined(separator: "\n")
  }

  /// The command line: the arguments, then the file (or `-c TEXT`, or nothing with `--stdin`).
  func arguments(file: String, text: String) -> [String] {
    let body = body(of: text)
    if arguments.contains("-c") {
      return arguments.filter { $0 != "-c" } + ["-c", body.trimmingCharacters(in: .whitespacesAndNewlines)]
    }
    if arguments.contains("--stdin") { return arguments.filter { $0 != "--stdin" } }
    return arguments + [file]
  }

  static func words(_ text: String) -> [String] {
    text.split(separator: " ").map(String.init)
  }
}

/// Runs the pipesh executable built beside the test bundle.
enum Pipesh {
  struct Result {
    let stdout: String
    let stderr: String
    let status: Int32
    /// Whether pipesh had to be killed because it ran past its limit (a hang).
    let timedOut: Bool
  }

  static var executable: URL {
    if let path = ProcessInfo.processInfo.environment["PIPESH"] { return URL(fileURLWithPath: path) }
    return builtBesideTheTests("pipesh") ?? URL(fileURLWithPath: ".build/debug/pipesh")
  }

  /// An executable of the package built with the test bundle.
  static func builtBesideTheTests(_ name: String) -> URL? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  /// Runs pipesh to its end; one that runs past `limit` seconds (a hang, not a slow run) is killed
  /// and reported as timed out. With `interruptWhen`, it gets SIGINT once its output shows that.
  /// With `mergingErrors`, standard error goes into the pipe of standard output, interleaved as a
  /// terminal shows them (`stdout` holds both, `stderr` is empty).
  static func run(
    _ arguments: [String], stdin: String? = nil, directory: URL? = nil, environment extra: [String: String] = [:],
    limit: Double = 120, executable: URL = executable, interruptWhen marker: String? = nil,
    mergingErrors: Bool = false
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    // Views fit 100 columns when nothing says otherwise (not a terminal, no COLUMNS).
    environment["COLUMNS"] = nil
    environment.merge(extra) { $1 }
    process.environment = environment
    let output = ClosingPipe()
    let error = mergingErrors ? output : ClosingPipe()
    let input = ClosingPipe()
    process.standardOutput = output.fileHandleForWriting
    process.standardError = error.fileHandleForWriting
    process.standardInput = input.fileHandleForReading
    try ClosingPipe.spawning.withLock { try process.run() }
    // The child has its own copies now: close ours, so the reads below see the end of output.
    try output.fileHandleForWriting.close()
    if !mergingErrors { try error.fileHandleForWriting.close() }
    try input.fileHandleForReading.close()
    let killed = NSLock()
    nonisolated(unsafe) var timedOut = false
    let watchdog = DispatchWorkItem {
      killed.withLock { timedOut = true }
      kill(process.processIdentifier, SIGKILL)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let errorReader = DispatchQueue(label: "stderr")
    nonisolated(unsafe) var errData = Data()
    let errorDone = DispatchSemaphore(value: 0)
    errorReader.async {
      if !mergingErrors { errData = error.fileHandleForReading.readDataToEndOfFile() }
      errorDone.signal()
    }
    var outData = Data()
    if let marker {
      while !String(decoding: outData, as: UTF8.self).contains(marker) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        outData.append(chunk)
      }
      kill(process.processIdentifier, SIGINT)
    }
    outData.append(output.fileHandleForReading.readDataToEndOfFile())
    errorDone.wait()
    process.waitUntilExit()
    watchdog.cancel()
    return Result(
      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
      status: process.terminationStatus, timedOut: killed.withLock { timedOut })
  }
}

/// A pipe whose descriptors are closed on exec: a pipesh started by one test never holds another
/// test's pipe open (`Foundation.Pipe` leaks them into children started at the same time, and a
/// test waiting for the end of its output then waits for someone else's child).
final class ClosingPipe: Sendable {
  let fileHandleForReading: FileHandle
  let fileHandleForWriting: FileHandle

  /// Held while a pipe is made (until its descriptors are marked close-on-exec) and while a child
  /// is started, so no child starts in between.
  static let spawning = NSLock()

  init() {
    var descriptors: [Int32] = [-1, -1]
    Self.spawning.withLock {
      let made = pipe(&descriptors) == 0
      precondition(made, "pipe failed: \(errno)")
      for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    }
    fileHandleForReading = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
    fileHandleForWriting = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
  }
}
