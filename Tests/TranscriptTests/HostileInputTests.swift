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
    case "a 3,750-deep interpolation": "from 1 | map { " + interpolation(3750) + " }"
    case "a 3,750-deep interpolation in an expect":
      "expect marble \"a-b|\" | map { " + interpolation(3750) + " } == \"a-b|\""
    case "a 3,750-deep interpolation drawn": "draw marble \"a-b|\" | map { " + interpolation(3750) + " }"
    case "3,750 nested merges of marbles":
      "draw " + String(repeating: "merge(", count: 3750) + "marble \"a|\""
        + String(repeating: ", marble \"b|\")", count: 3750)
    case "fragments nesting 30 flatMaps each, 64 deep": nestedFragments(64, each: 30)
    default: "from (1, 2) | map { $0" + String(repeating: ".0", count: 100_000) + " }"
    }
  }

  /// `"\("\(… $0 …)")"`, `depth` strings deep.
  static func interpolation(_ depth: Int) -> String {
    var text = "$0"
    for _ in 0..<depth { text = "\"\\(" + text + ")\"" }
    return text
  }

  /// `let p0 = marble "a|"`, then `depth - 1` fragments, each nesting the last in `each` flatMaps:
  /// every statement is shallow, what the last expands to is not.
  static func nestedFragments(_ depth: Int, each: Int) -> String {
    var lines = ["let p0 = marble \"a|\""]
    for level in 1..<depth {
      lines.append(
        "let p\(level) = " + String(repeating: "marble \"a|\" | flatMap { ", count: each) + "p\(level - 1)"
          + String(repeating: " }", count: each))
    }
    return (lines + ["expect p\(depth - 1) | count == \"(1|)\""]).joined(separator: "\n")
  }

  static let deepInputs = [
    "8,000 nested (", "10,000 [", "100,000 !", "a 50,000-term + chain", "10,000 unclosed (", "10,000 nested closures",
    "a 100,000-member chain", "a 3,750-deep interpolation", "a 3,750-deep interpolation in an expect",
    "a 3,750-deep interpolation drawn", "3,750 nested merges of marbles", "fragments nesting 30 flatMaps each, 64 deep",
  ]

  /// Every pass pipesh makes of a script: running it (inline and from a file), `--check`,
  /// `--emit-swift` (plain too), `--emit-test`, and the page (`--page`, its marble annotation
  /// included), which says its errors in the fragment it prints.
  static func everyPass(_ text: String) throws -> [[String]] {
    let path = try file(text)
    // A command line holds at most 128 KiB in one argument: longer texts go as files only.
    let inline = text.utf8.count < 100_000 ? [["-c", text]] : []
    return inline + [
      [path], ["--check", path], ["--emit-swift", path], ["--emit-swift", "--plain", path], ["--emit-test", path],
      ["--virtual-time", "--page", path],
    ]
  }

  @Test("deep nesting is an error, not a stack overflow", arguments: deepInputs)
  func deepNesting(_ name: String) throws {
    let text = Self.deepInput(name)
    for arguments in try Self.everyPass(text) {
      let result = try Pipesh.run(arguments, limit: 60)
      let said = arguments.contains("--page") ? result.stdout : result.stderr
      #expect(!result.timedOut, "\(name) did not end: \(arguments.dropLast())")
      #expect(result.status == 2, "\(name), \(arguments.dropLast()): \(said.prefix(300))")
      #expect(said.contains("error: "), "\(name), \(arguments.dropLast())")
      #expect(said.contains("nest"), "\(name), \(arguments.dropLast()): \(said.prefix(300))")
      #expect(said.count < 20_000, "\(name), \(arguments.dropLast()): one diagnostic, not one per level")
    }
  }

  /// Just within the limits, every pass still works: an interpolation 90 deep, fragments whose
  /// merges nest exactly as deep as a statement may, and a flatMap 20 deep drawn on the page (its
  /// lanes' labels are indented no further than the label column allows).
  static let withinTheLimits: [(text: String, pageStatus: Int32)] = [
    (
      "expect marble \"a-b|\" | map { " + interpolation(90) + " } == \"a-b|\"\nmarble \"a-b|\" | map { "
        + interpolation(90) + " }", 0
    ),
    (String(repeating: "from 1 | flatMap { ", count: 20) + "marble \"a|\"" + String(repeating: " }", count: 20), 0),
    (nestedMerges(levels: 100), 1),
  ]

  @Test(arguments: 0..<3)
  func deepButWithinTheLimitsWorks(_ index: Int) throws {
    let (text, pageStatus) = Self.withinTheLimits[index]
    for arguments in try Self.everyPass(text) {
      let result = try Pipesh.run(arguments, limit: 60)
      #expect(!result.timedOut, "\(arguments.dropLast())")
      guard arguments.contains("--page") else {
        #expect(result.status == 0, "\(arguments.dropLast()): \(result.stderr.prefix(300))")
        continue
      }
      // The page's run stops at its 10,000 events: 100 merges of marbles drawn with their demand
      // reach them, and the expectation says it could not be judged (status 1), with no trap.
      #expect(result.status == pageStatus, "\(result.stdout.prefix(300))")
      #expect(result.stdout.contains(pageStatus == 0 ? "<svg" : "error: expectation failed"))
    }
  }

  /// Fragments of merges of marbles that, used in one another, nest pipelines `levels` deep; a
  /// level more is an error that says so.
  static func nestedMerges(levels: Int) -> String {
    var lines = ["let p0 = marble \"a|\""]
    var total = 1
    while total < levels {
      let more = min(12, levels - total)
      lines.append(
        "let p\(lines.count) = " + String(repeating: "merge(", count: more) + "p\(lines.count - 1)"
          + String(repeating: ", marble \"b|\")", count: more))
      total += more
    }
    return (lines + ["expect p\(lines.count - 1) | count == \"-['\(levels)'|]\""]).joined(separator: "\n")
  }

  @Test func fragmentsNestingPastTheLimitAreAnError() throws {
    let result = try Pipesh.run(["--check", try Self.file(Self.nestedMerges(levels: 101))])
    #expect(result.status == 2)
    #expect(result.stderr.contains("error: this nests pipelines 101 levels deep, counting those inside the fragments"))
    #expect(result.stderr.contains("note: groups, combinators' inputs and flatMap bodies nest at most 100 levels"))
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
