import Foundation
import Testing

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
    let result = try Pipesh.run(arguments, stdin: stdin, directory: directory)
    #expect(result.stdout == expectation.stdout, "stdout of \(name)")
    #expect(result.stderr == expectation.stderr, "stderr of \(name)")
    #expect(result.status == expectation.status, "exit status of \(name)")
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
  }

  static var executable: URL {
    if let path = ProcessInfo.processInfo.environment["PIPESH"] { return URL(fileURLWithPath: path) }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent("pipesh")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: ".build/debug/pipesh")
  }

  static func run(
    _ arguments: [String], stdin: String? = nil, directory: URL? = nil, environment extra: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment.merge(extra) { $1 }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
      status: process.terminationStatus)
  }
}

/// The same virtual-time script gives byte-identical output on every run.
@Suite("determinism")
struct DeterminismTests {
  static let script = """
    merge(timer 1 | take 5, timer 1 | map { $0 * 10 } | take 5, marble "ab-cd|" | map { 7 }) | print time: true
    zip(timer 1 | take 4, marble "a-b--c|") | collect
    marble "a-bc---d-e|" | debounce 1.5 | diagram
    let t = timer 1 | take 3 | share
    t | map { -$0 } &
    t | map { $0 * 100 } &
    combineLatest(timer 1 | take 3, timer 1.5 | take 3) | diagram
    wait
    """

  @Test func fiftyRunsPrintTheSameBytes() throws {
    let first = try Pipesh.run(["--virtual-time", "-c", Self.script])
    #expect(first.status == 0)
    #expect(first.stdout.split(separator: "\n").count == 23)
    for _ in 1..<50 {
      let again = try Pipesh.run(["--virtual-time", "-c", Self.script])
      #expect(again.stdout == first.stdout)
      #expect(again.stderr == first.stderr)
    }
  }
}

/// Starting and cancelling 1,000 background jobs in the shell leaves nothing of them running.
@Suite("lifetimes")
struct LifetimeTests {
  @Test func thousandJobsCancelledLeaveStatsAtZero() throws {
    let script = String(repeating: "timer 1 | map { $0 + 1 } | drain &\n", count: 1000) + "cancel all\nstats\njobs\n"
    let result = try Pipesh.run(["-c", script])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "jobs: 0 running · tasks: 0 live · nodes: 0 live")
    #expect(lines.dropFirst(2).allSatisfy { $0.contains("cancelled") })
    #expect(lines.count == 1002)
  }
}

/// Fusing synchronous stages into one node changes nothing `inspect`, `jobs` or the output show.
@Suite("fusion")
struct FusionTests {
  static let script = """
    range 1 10 | map { $0 * 2 } | filter { $0 % 3 == 0 } | take 2 | count
    inspect 1
    from 1 2 0 4 | map { 10 / $0 } | filter { $0 > 0 } | drain
    inspect 2
    range 1 20 | enumerated | dropWhile { $0.0 < 3 } | takeWhile { $0.1 < 9 } | compactMap { $0.0 > 4 ? $0.1 : nil } | collect
    inspect 3
    timer 1 | map { $0 + 1 } | filter { $0 % 2 == 0 } | take 3 | collect
    inspect 4
    range 1 5 | map { $0 } | drop 2 | drain
    jobs
    """

  @Test func fusedAndUnfusedReportTheSame() throws {
    let fused = try Pipesh.run(["--virtual-time", "-c", Self.script])
    let unfused = try Pipesh.run(["--virtual-time", "-c", Self.script], environment: ["PIPESH_FUSION": "off"])
    #expect(fused.stdout.contains("range 1 10              cancelled (downstream cancelled)"))
    #expect(fused.stdout == unfused.stdout)
    #expect(fused.stderr == unfused.stderr)
    #expect(fused.status == 1)
  }
}
