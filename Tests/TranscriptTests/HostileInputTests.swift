import Foundation
import Testing

/// Input meant to break pipesh: it must answer with a diagnostic or a job error, never a trap, and
/// never exit 0 after an error or lose what it printed.
@Suite("hostile input")
struct HostileInputTests {
  /// An address-space limit too small for the Swift runtime (`ulimit -v 50000`) is said at once,
  /// with status 2 (libdispatch used to wait and retry its failed allocation for ever). Not under
  /// ThreadSanitizer, whose runtime maps terabytes of shadow memory before pipesh's code runs.
  @Test(.enabled(if: !Pipesh.executable.path.contains(".build-tsan")))
  func tooSmallAnAddressSpaceIsSaid() throws {
    let result = try Pipesh.run(
      ["-c", "ulimit -v 50000; exec '\(Pipesh.executable.path)' -c 'from 1'"], limit: 30,
      executable: URL(fileURLWithPath: "/bin/sh"))
    #expect(!result.timedOut)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("error: pipesh needs at least "))
    #expect(result.stderr.contains("MB of address space here (for its threads' memory), and the limit is 50000 kB"))
    // --version starts no threads, and needs no such room.
    let check = try Pipesh.run(
      ["-c", "ulimit -v 50000; exec '\(Pipesh.executable.path)' --version"], limit: 30,
      executable: URL(fileURLWithPath: "/bin/sh"))
    #expect(check.status == 0)
  }

  /// A file in a temporary folder with `text` in it.
  static func file(_ text: String, suffix: String = ".pipe") throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-\(UUID())\(suffix)")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Inputs nested far past the limit, by name (the texts are too long to show as test arguments).
  static func deepInput(_ name: String) -> String {
    switch name {
    case "8,000 nested (": String(repeating: "(", count: 8000) + "from 1" + String(repeating: ")", count: 8000)
    case "10,000 [": "from " + String(repeating: "[", count: 10_000) + "1" + String(repeating: "]", count: 10_000)
    case "100,000 !": "from 1 | map { " + String(repeating: "!", count: 100_000) + "true }"
    case "a 50,000-term + chain":
      "from 1 | map { " + Array(repeating: "$0", count: 50_000).joined(separator: " + ") + " }"
    case "10,000 unclosed (": String(repeating: "(", count: 10_000) + "from 1"
    case "10,000 nested closures": "from 1 | map " + String(repeating: "{ ", count: 10_000) + "$0"
    default: "from (1, 2) | map { $0" + String(repeating: ".0", count: 100_000) + " }"
    }
  }

  static let deepInputs = [
    "8,000 nested (", "10,000 [", "100,000 !", "a 50,000-term + chain", "10,000 unclosed (", "10,000 nested closures",
    "a 100,000-member chain",
  ]

  @Test("deep nesting is an error, not a stack overflow", arguments: deepInputs)
  func deepNesting(_ name: String) throws {
    let text = Self.deepInput(name)
    // A command line holds at most 128 KiB in one argument: longer texts go as files only.
    let inline = text.utf8.count < 100_000 ? [["-c", text]] : []
    for arguments in inline + [[try Self.file(text)], ["--check", try Self.file(text)]] {
      let result = try Pipesh.run(arguments, limit: 60)
      #expect(!result.timedOut, "\(name) did not end")
      #expect(result.status == 2, "\(name): \(result.stderr.prefix(300))")
      #expect(result.stderr.contains("error: "), "\(name)")
      #expect(result.stderr.count < 20_000, "\(name): one diagnostic, not one per level")
    }
  }

  @Test func nestingUpToTheLimitStillWorks() throws {
    let depth = 40
    let text = "from " + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    let result = try Pipesh.run(["-c", text])
    #expect(result.status == 0)
    #expect(result.stdout == String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) + "\n")
  }

  /// A long interpolation is within every limit (a 200 KB line): it runs, fused and not, and
  /// exports, as `--check` says it may (each of its 40,000 pieces was a call nested in the last's).
  @Test func anInterpolationOf40000PiecesRuns() throws {
    let pieces = 40_000
    let text = "from 7 | map { \"" + String(repeating: "\\($0)", count: pieces) + "\" } | map { $0.count } | print"
    let path = try Self.file(text)
    let check = try Pipesh.run(["--check", path], limit: 60)
    #expect(check.status == 0, "\(check.stderr.prefix(300))")
    for environment in [[:], ["PIPESH_FUSION": "off"]] {
      let result = try Pipesh.run(["--virtual-time", path], environment: environment, limit: 60)
      #expect(result.status == 0, "\(environment): \(result.stderr.prefix(300))")
      #expect(result.stdout == "\(pieces)\n", "\(environment)")
      #expect(result.stderr == "", "\(environment)")
    }
    let exported = try Pipesh.run(["--emit-swift", path], limit: 60)
    #expect(exported.status == 0, "\(exported.stderr.prefix(300))")
  }

  @Test("a string ending in a backslash at the end of input", arguments: ["from \"a\\", "from \"a\\\\\\"])
  func backslashAtTheEnd(_ text: String) throws {
    let result = try Pipesh.run(["-c", text])
    #expect(result.status == 2)
    #expect(result.stderr.contains("error: unterminated string literal"))
  }

  @Test func controlCharactersInErrorsAreShownEscaped() throws {
    let result = try Pipesh.run(["-c", "from 1 | \u{1B}]0;owned\u{07}"])
    #expect(result.status == 2)
    #expect(!result.stderr.contains("\u{1B}"))
    #expect(!result.stderr.contains("\u{07}"))
    #expect(result.stderr.contains("\\u{1B}]0;owned\\u{7}"))
  }

  @Test func aReaderThatGoesAwayEndsPipeshQuietly() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "'\(Pipesh.executable.path)' -c 'range 1 100000 | print' | head -1"]
    let output = ClosingPipe()
    let error = ClosingPipe()
    process.standardOutput = output.fileHandleForWriting
    process.standardError = error.fileHandleForWriting
    try ClosingPipe.spawning.withLock { try process.run() }
    try output.fileHandleForWriting.close()
    try error.fileHandleForWriting.close()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complained = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(String(decoding: printed, as: UTF8.self) == "1\n")
    #expect(complained.isEmpty)
  }

  /// A standard descriptor closed when pipesh starts is named as closed (its number is held from
  /// the start, so the runtime's own descriptors cannot take it and answer "Invalid argument").
  @Test(arguments: [
    (">&-", ["-c", "from 1 2"], "pipesh: cannot write to standard output: it is closed", Int32(1)),
    ("<&-", ["-c", "stdin | print"], "error: [1] stdin: standard input is closed", 1),
    ("<&-", [], "error: cannot read the script from standard input: it is closed", 2),
    ("<&-", ["-c", "lines \"/dev/null\" | count"], "", 0),
  ])
  func aClosedStandardDescriptorIsNamed(
    _ redirection: String, _ arguments: [String], _ message: String, _ status: Int32
  )
    throws
  {
    let shell = ["-c", "exec \"$0\" \"$@\" \(redirection)", Pipesh.executable.path] + arguments
    let result = try Pipesh.run(shell, executable: URL(fileURLWithPath: "/bin/sh"))
    #expect(result.status == status)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(message.isEmpty == result.stderr.isEmpty)
  }

  @Test(arguments: [["-c", "from 1 2 3"], ["--help"], ["--version"]])
  func aFullDiskIsAnError(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = Pipesh.executable
    process.arguments = arguments
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    let error = ClosingPipe()
    process.standardError = error.fileHandleForWriting
    try ClosingPipe.spawning.withLock { try process.run() }
    try error.fileHandleForWriting.close()
    let complained = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(String(decoding: complained, as: UTF8.self).contains("cannot write to standard output"))
  }

  /// Output to a pipe arrives line by line, while pipesh still runs.
  @Test func outputToAPipeIsNotHeldBack() throws {
    let process = Process()
    process.executableURL = Pipesh.executable
    process.arguments = ["-c", "timer 0.01 | take 3 | print\nnever"]
    let output = ClosingPipe()
    process.standardOutput = output.fileHandleForWriting
    try ClosingPipe.spawning.withLock { try process.run() }
    try output.fileHandleForWriting.close()
    defer { process.terminate() }
    var seen = ""
    let deadline = Date().addingTimeInterval(60)
    while seen.split(separator: "\n").count < 3, Date() < deadline {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      seen += String(decoding: data, as: UTF8.self)
    }
    #expect(seen == "0\n1\n2\n")
    #expect(process.isRunning)
  }

  /// SIGTERM ends a script after writing what it had buffered for a file.
  @Test func sigtermKeepsBufferedOutput() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-\(UUID()).out").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let process = Process()
    process.executableURL = Pipesh.executable
    process.arguments = [
      "-c", "from 7\njobs\nfrom 0 | map { 1 / $0 }\ntimer 0.001 | map { \"tick\" } | print",
    ]
    process.standardOutput = FileHandle(forWritingAtPath: path)
    let error = ClosingPipe()
    process.standardError = error.fileHandleForWriting
    try ClosingPipe.spawning.withLock { try process.run() }
    try error.fileHandleForWriting.close()
    // The third statement's error comes on standard error; the fourth then prints to the file.
    var complaint = ""
    while !complaint.contains("division by zero") {
      let data = error.fileHandleForReading.availableData
      if data.isEmpty { break }
      complaint += String(decoding: data, as: UTF8.self)
    }
    process.terminate()
    process.waitUntilExit()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("7\nID  STATE"))
    #expect(text.hasSuffix("\n"))
    #expect(text.split(separator: "\n").dropFirst(4).allSatisfy { $0 == "tick" })
    #expect(process.terminationStatus == 143)
  }
}
