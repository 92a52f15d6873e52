import Foundation
import Testing

/// `pipesh --emit-swift` on every transcript script and every Example: the exported programs are
/// compiled together (one executable, each script a function of it, `-warnings-as-errors`), and
/// each must print what pipesh prints (its pinned stdout, stderr and exit status) unless its
/// output depends on timing. Timed ones must compile; those marked `#export: real clock` (generous
/// intervals) must print the same on the real clock too. A script that does not check exports
/// nothing, with pipesh's own diagnostics and status 2.
@Suite("exported Swift programs", .serialized)
struct ExportTests {
  static let root = TranscriptTests.examples.deletingLastPathComponent()
  static let package = root.appendingPathComponent(".build-export")
  /// The one build folder of the packages the tests build (this one and MarbleTesting's user
  /// package): swift-async-algorithms is compiled once for both. SwiftPM locks it, so the two
  /// builds take turns.
  static let scratch = root.appendingPathComponent(".build-packages")
  /// How both build there: without debug information, which nothing reads (a tenth of a build).
  static let buildFlags = ["-Xswiftc", "-gnone"]
  static var buildOptions: [String] {
    ["--package-path", package.path, "--scratch-path", scratch.path] + buildFlags
  }

  /// One script: where it lives, what it expects, and its export.
  struct Exported {
    let name: String
    let identifier: String
    let directory: URL
    let expectation: Expectation
    let program: String
    let warnings: String
    /// Whether its output must be compared: untimed and without pipesh-only commands, or marked.
    let compared: Bool
  }

  /// A `load`ed file's jobs take numbers in pipesh that the program, without them, cannot know: a
  /// job number from there on is refused rather than written as another job's.
  @Test func jobNumbersALoadMayHaveTakenAreRefused() throws {
    let before = try Pipesh.run(
      ["--emit-swift", "-c", "timer 1 | take 1 | drain &\nload \"other.pipe\"\nwait 1"],
      directory: TranscriptTests.directory)
    #expect(before.status == 0, "job 1 started before the load: \(before.stderr)")
    let after = try Pipesh.run(
      ["--emit-swift", "-c", "load \"other.pipe\"\ntimer 1 | take 1 | drain &\ncancel 1"],
      directory: TranscriptTests.directory)
    #expect(after.status == 2)
    #expect(after.stdout.isEmpty)
    #expect(after.stderr.contains("<-c>:3:1: error: job 1 may be one the load on line 1 starts"))
  }

  @Test func exportedProgramsPrintWhatPipeshPrints() throws {
    var exported: [Exported] = []
    let sources =
      TranscriptTests.scripts.map { ($0, TranscriptTests.directory, "script") }
      + TranscriptTests.pipeFiles(in: TranscriptTests.examples).map { ($0, TranscriptTests.examples, "example") }
    for (name, directory, kind) in sources {
      let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      let expectation = Expectation(parsing: text)
      // A script run with --emit-test is the test file's check (MarbleTestingPackageTests runs one).
      if expectation.arguments.contains("--emit-test") { continue }
      // A script run with --page checks the fragment of pipesh serve's page, not a program.
      if expectation.arguments.contains("--page") { continue }
      let arguments = ["--emit-swift"] + expectation.arguments(file: name, text: text)
      let stdin = expectation.arguments.contains("--stdin") ? expectation.body(of: text) : nil
      let result = try Pipesh.run(arguments, stdin: stdin, directory: directory)
      if result.status == 2, text.contains("#export: refused") {
        // A script pipesh runs whose Swift the export refuses on purpose, saying why.
        #expect(result.stderr.contains("error:"), "export of \(name) refused without a word")
        continue
      }
      if result.status == 2 {
        // A script that does not check: the export says what pipesh says, with the same status.
        #expect(expectation.status == 2, "export of \(name): \(result.stderr)")
        #expect(result.stderr == expectation.stderr, "diagnostics of the export of \(name)")
        continue
      }
      #expect(result.status == 0, "export of \(name): \(result.stderr)")
      guard result.status == 0 else { continue }
      let identifier = kind + "_" + name.dropLast(5).map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
      let timed = Self.isTimed(result.stdout) || expectation.arguments.contains("--virtual-time")
      let marked = text.contains("#export: real clock")
      exported.append(
        Exported(
          name: name, identifier: identifier, directory: directory, expectation: expectation,
          program: result.stdout, warnings: result.stderr,
          compared: marked || (!timed && result.stderr.isEmpty)))
    }
    for (index, pipeline) in Self.generated.enumerated() {
      let result = try Pipesh.run(["--emit-swift", "-c", pipeline], directory: TranscriptTests.directory)
      #expect(result.status == 0 && result.stderr.isEmpty, "export of \(pipeline): \(result.stderr)")
      guard result.status == 0 else { continue }
      // work and delay in one chain print the same on any clock; times, marbles, subjects and
      // concurrent flatMaps may not.
      let compared = !["time: true", "marble", "subject", "concurrency:"].contains { pipeline.contains($0) }
      var expectation = Expectation(parsing: "")
      if compared {
        let run = try Pipesh.run(["-c", pipeline], directory: TranscriptTests.directory)
        (expectation.stdout, expectation.stderr, expectation.status) = (run.stdout, run.stderr, run.status)
      }
      exported.append(
        Exported(
          name: "the generated \(pipeline)", identifier: "generated\(index)", directory: TranscriptTests.directory,
          expectation: expectation, program: result.stdout, warnings: result.stderr, compared: compared))
    }
    // The plain programs (`--emit-swift --plain`): where pipesh's checks do not fire (it ends
    // with status 0), they print what pipesh prints.
    for (index, pipeline) in (Self.plainPrograms + Self.generated).enumerated() {
      let run = try Pipesh.run(["-c", pipeline], directory: TranscriptTests.directory)
      guard run.status == 0 else { continue }
      let result = try Pipesh.run(["--emit-swift", "--plain", "-c", pipeline], directory: TranscriptTests.directory)
      #expect(result.status == 0 && result.stderr.isEmpty, "plain export of \(pipeline): \(result.stderr)")
      guard result.status == 0 else { continue }
      #expect(!result.stdout.contains("checked"), "the plain export of \(pipeline) checks:\n\(result.stdout)")
      let compared = !["time: true", "marble", "subject", "concurrency:"].contains { pipeline.contains($0) }
      var expectation = Expectation(parsing: "")
      (expectation.stdout, expectation.stderr, expectation.status) = (run.stdout, run.stderr, run.status)
      exported.append(
        Exported(
          name: "the plain \(pipeline)", identifier: "plain\(index)", directory: TranscriptTests.directory,
          expectation: expectation, program: result.stdout, warnings: result.stderr, compared: compared))
    }
    #expect(exported.filter { $0.compared && $0.identifier.hasPrefix("plain") }.count >= 10)
    #expect(exported.filter(\.compared).count >= 30)

    try write(exported)
    try writeSnippets()
    let build = try Command.run(
      "/usr/bin/env", ["swift", "build"] + Self.buildOptions,
      limit: 900)
    #expect(build.status == 0, "the exported programs do not compile:\n\(build.stdout)\(build.stderr)")
    guard build.status == 0 else { return }
    let lint = try Command.run(
      "/usr/bin/env",
      [
        "swift", "format", "lint", "--strict", "--configuration",
        Self.package.appendingPathComponent("format.json").path,
      ]
        + exported.map { Self.package.appendingPathComponent("programs/\($0.identifier).swift").path },
      limit: 600)
    #expect(lint.status == 0 && lint.stderr.isEmpty, "swift format lint of the exports:\n\(lint.stderr)")

    let binary = Self.scratch.appendingPathComponent("debug/Exported")
    for script in exported where script.compared {
      let stdin = script.expectation.arguments.contains("--stdin") ? nil : script.expectation.stdin
      let run = try Command.run(
        binary.path, [script.identifier], stdin: stdin, directory: script.directory, limit: 120)
      #expect(run.stdout == script.expectation.stdout, "stdout of the export of \(script.name)")
      #expect(run.stderr == script.expectation.stderr, "stderr of the export of \(script.name)")
      #expect(run.status == script.expectation.status, "exit status of the export of \(script.name)")
    }
    try searchAsYouTypePrintsWhatPipeshPrints(binary)
  }

  /// `Examples/search-as-you-type.pipe` exported runs on the real clock: it must print pipesh's
  /// lines (`search: cancelled` among them: the search that a newer query cancels, which its `work`
  /// was waiting for), in pipesh's order, without the times (which the real clock moves by a few
  /// milliseconds); lines of one instant in pipesh may come in either order (there the export's
  /// tasks race: the cancelled search ends as the newer one starts).
  func searchAsYouTypePrintsWhatPipeshPrints(_ binary: URL) throws {
    let name = "search-as-you-type.pipe"
    let text = try String(contentsOf: TranscriptTests.examples.appendingPathComponent(name), encoding: .utf8)
    // What the pipeline prints: `inspect` is pipesh's own, a comment in the export.
    let statements = Expectation(parsing: text).body(of: text).split(separator: "\n")
      .filter { !$0.hasPrefix("#") && !$0.hasPrefix("inspect") }
    let pipesh = try Pipesh.run(["--virtual-time", "-c", statements.joined(separator: "\n")])
    let expected = pipesh.stdout.split(separator: "\n").map(String.init)
    #expect(expected.contains("+1.600s search: cancelled"), "pipesh's run of \(name):\n\(pipesh.stdout)")
    let run = try Command.run(
      binary.path, ["example_search_as_you_type"], directory: TranscriptTests.examples, limit: 60)
    #expect(run.status == 0 && run.stderr.isEmpty, "the export of \(name): \(run.stderr)")
    let printed = run.stdout.split(separator: "\n").map { Self.withoutTime(String($0)) }
    #expect(printed.count == expected.count, "the export of \(name) printed:\n\(run.stdout)")
    var start = 0
    for instant in Self.instants(expected) {
      let end = min(start + instant.count, printed.count)
      #expect(
        printed[start..<end].sorted() == instant.map(Self.withoutTime).sorted(),
        "the export of \(name) printed:\n\(run.stdout)")
      start = end
    }
  }

  /// Lines as runs of the same time (`+1.600s`).
  static func instants(_ lines: [String]) -> [[String]] {
    var runs: [[String]] = []
    for line in lines {
      if let last = runs.last?.last, last.prefix(while: { $0 != " " }) == line.prefix(while: { $0 != " " }) {
        runs[runs.count - 1].append(line)
      } else {
        runs.append([line])
      }
    }
    return runs
  }

  /// A line without its time (`+1.600s `).
  static func withoutTime(_ line: String) -> String {
    guard line.hasPrefix("+"), let space = line.firstIndex(of: " ") else { return line }
    return String(line[line.index(after: space)...])
  }

  /// Whether a program's output can depend on timing: it uses a clock, or tasks that race.
  static func isTimed(_ program: String) -> Bool {
    [
      "clock: .continuous", "timer(every:", "Task.sleep", "marble(", "delayed(by:", "working(for:", "timeout(after:",
      "let origin = ContinuousClock.now",
      // A stream's yields and a subject's sends do not wait for the consumer, and concurrent
      // pipelines race: what arrives depends on when each task runs.
      "makeStream(", "CurrentValue<", "flatMap(concurrency:",
    ].contains { program.contains($0) }
  }

  /// The package: each program one file, its `exit(await runScript())` replaced by a function the
  /// dispatching `main.swift` calls.
  func write(_ exported: [Exported]) throws {
    let sources = Self.package.appendingPathComponent("Sources/Exported")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    let manifest = """
      // swift-tools-version: 6.2
      import PackageDescription

      let package = Package(
        name: "Exported",
        dependencies: [.package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4")],
        targets: [
          .executableTarget(
            name: "Exported",
            dependencies: [.product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
            swiftSettings: [.treatAllWarnings(as: .error)])
        ],
        swiftLanguageModes: [.v6]
      )

      """
    try Self.write(manifest, to: Self.package.appendingPathComponent("Package.swift"))
    let configuration = try Command.run("/usr/bin/env", ["swift", "format", "dump-configuration"], limit: 120)
    try configuration.stdout.write(
      to: Self.package.appendingPathComponent("format.json"), atomically: true, encoding: .utf8)
    let programs = Self.package.appendingPathComponent("programs")
    try? FileManager.default.removeItem(at: programs)
    try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
    var cases: [String] = []
    for script in exported {
      try script.program.write(
        to: programs.appendingPathComponent("\(script.identifier).swift"), atomically: true, encoding: .utf8)
      let entry = "exit(await runScript())\n"
      #expect(script.program.contains(entry), "\(script.name)'s export has no entry line")
      let text =
        script.program.replacingOccurrences(of: entry, with: "")
        + "\nfunc \(script.identifier)() async -> Int32 { await runScript() }\n"
      try Self.write(text, to: sources.appendingPathComponent("\(script.identifier).swift"))
      cases.append("case \"\(script.identifier)\": exit(await \(script.identifier)())")
    }
    let main = """
      #if canImport(Glibc)
        import Glibc
      #endif

      switch CommandLine.arguments.dropFirst().first {
      \(cases.joined(separator: "\n"))
      default: exit(64)
      }

      """
    try Self.write(main, to: sources.appendingPathComponent("main.swift"))
    // A file of a script that is gone would still be compiled: remove it.
    let wanted = Set(
      exported.map { "\($0.identifier).swift" } + ["main.swift"]
        + (Self.snippets + Self.generated).indices.map { "Snippet\($0).swift" }
        + Self.plainSnippets.indices.map { "PlainSnippet\($0).swift" })
    for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !wanted.contains(name) {
      try FileManager.default.removeItem(at: sources.appendingPathComponent(name))
    }
  }

  /// Pipelines of the pieces that have broken the export (sources that can fail, checked
  /// arithmetic, takeWhile and dropWhile, random with bounds worked out from `$0`, tap time:,
  /// subjects, work, delay, chains of closures), combined the same way on every run (a fixed seed):
  /// each is exported as a program and as a snippet and compiled with the rest, and the programs
  /// whose output the clock does not change must print what pipesh prints.
  static let generated: [String] = {
    let sources = [
      "range 1 6", "marble \"a-bb-ccc-dddd|\" tick: 0.01 | map { $0.count }", "chain(from 5 6 7, fail \"boom\")",
      "random 1 9 count: 6 seed: 3", "from 2 3 | flatMap { random 1 ($0 + 1) count: 3 seed: 4 }",
      "from 1 2 3 | flatMap { from $0 ($0 * 10) } concurrency: 2", "subject b initial: 4 | take 1",
      "from 3 1 4 1 5 9 2 6",
    ]
    let stages = [
      "takeWhile { $0 < 40 }", "dropWhile { $0 < 2 }", "map { $0 * 3 + 1 }", "filter { $0 % 2 == 1 }",
      "compactMap { $0 > 3 ? $0 - 1 : nil }", "tap \"t\" time: true", "tap \"u\"", "work 0.001",
      "work 0.001 cooperative: false", "delay 0.001",
      "interspersed 0", "reductions { $0 + $1 }", "flatMap { from $0 ($0 + 1) | takeWhile { $0 % 5 != 0 } }",
      "map { 100 / ($0 - 4) }", "mapError { \"lookup: \" + $0 }",
    ]
    let sinks = ["collect", "reduce 0 { $0 + $1 }", "sum", "count", "max", "print"]
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    return (0..<16).map { index in
      let middle = (0..<(2 + next(3))).map { _ in stages[next(stages.count)] }
      return ([sources[index % sources.count]] + middle + [sinks[next(sinks.count)]]).joined(separator: " | ")
    }
  }()

  /// Pipelines whose plain programs (`--emit-swift --plain`) must print what pipesh prints:
  /// arguments worked out from `$0` (written as Swift takes them, unchecked) and arithmetic that
  /// does not overflow.
  static let plainPrograms = [
    "from 1 2 3 | flatMap { range 1 5 | take $0 } | collect", "from 2 1 | flatMap { range 1 6 by: $0 } | collect",
    "from 3 | flatMap { random 1 ($0 + 1) count: 3 seed: 4 } | collect",
    "from 2 | flatMap { range 1 9 | buffer $0 | take 3 } | collect", "from 1 2 3 | map { $0 * 1000 } | sum",
    "from 1 2 | flatMap { timer 0.01 | take $0 } | count", "from 1 2 | flatMap { from $0 | delay ($0 * 0.01) } | print",
    "from 4 5 | flatMap { range 1 $0 | drop ($0 - 2) } | reduce 0 { $0 + $1 }",
    "from 3 | flatMapLatest { range 1 $0 | map { 10 / $0 } } | collect",
    "from 2 3 | flatMap { range 1 10 | chunks $0 | take 2 } | print",
    "range 1 4 | reductions { $0 * $1 } | map { $0 - 1 } | collect",
  ]

  /// Pipelines whose `swift` snippets must compile as a Swift engineer would paste them: every
  /// operator, the channels, streams and subjects they declare, and the forms of closures.
  static let snippets = [
    "timer 1 | take 3", "range 1 10 by: 2 | collect", "from 1 2 3 | map { $0 * 2 } | sum",
    "from 1 2 3 | map { x in x * 2 } | reduce 0 { acc, x in acc + x }",
    "from 1 2 3 | map { $0 * 2 } | sum checked: true", "marble \"ab-c|\" | print",
    "random 1 6 count: 3 seed: 7 | collect", "lines \"data.txt\" | count", "stdin | take 1",
    "channel c of: Int | take 2", "channel d of: String throws | print", "empty | count", "never | take 1",
    "fail \"boom\" | drain", "merge(from 1, timer 1 | take 2) | print",
    "zip(from 1 2, from \"a\" \"b\") | map { $0.1 + str($0.0) } | collect",
    "combineLatest(timer 1, timer 2) | take 3", "chain(from 1, from 2 3) | max",
    "from 1 2 3 | filter { n in n > 1 } | compactMap { $0 > 2 ? $0 : nil } | min",
    "from 1 2 3 | drop 1 | takeWhile { $0 < 3 } | dropWhile { $0 < 2 } | first",
    "from 1 nil 2 | compacted | last", "timer 0.1 | throttle 1 latest: false | debounce 0.5 | take 2",
    "from 1 1 2 | removeDuplicates | interspersed 0 | adjacentPairs | collect",
    "from 1 2 3 | reductions { $0 + $1 } | chunks 2 | print", "timer 0.1 | chunked 1 | take 2",
    "from 10 20 30 10 40 40 10 20 | chunked { $0 <= $1 } | print", "from 1 2 3 | chunked { _, _ in true } | collect",
    "range 1 5 | buffer 0 policy: oldest | collect",
    "timer 0.1 | chunks 3 every: 1 | take 1", "timer 0.1 | chunks 3 or: (marble \"-x\") | take 1",
    "marble \"ab-c|\" | chunked by: (timer 1 | map { \"tick\" }) | print",
    "range 1 100 | buffer 3 policy: newest | take 5",
    "timer 1 | share | take 2", "from \"a\" \"b\" | enumerated | print",
    "from 1 2 | delay 1 | work 0.5 | timeout 2 | tap \"seen\" | drain",
    "from 1 2 | work 0.5 cooperative: false | take 1 | print",
    "chain(from 5, fail \"boom\") | mapError { m in \"lookup: \" + m } | collect",
    "from 1 2 3 | flatMap { from $0 ($0 * 10) } | collect", "timer 1 | flatMapLatest { timer $0 | take 2 } | take 3",
    "from 3 1 2 | flatMap { from $0 | delay $0 } concurrency: 2 | print",
    "from 1 2 | diagram", "from 1 2 | into e", "from 1.5 2 | map { abs($0) * -1.0 } | sum",
    "from [1, 2] [3] | map { $0[0] + $0.count } | sum", "from 2.5 | map { int($0) } | print",
    "stream s of: Int buffering: newest 2 | take 1", "stream t of: String buffering: oldest 3 | collect",
    "stream u of: Int | print", "subject user initial: \"guest\" | take 1",
    "subject n initial: 0 | map { $0 + 1 } | take 2 | collect",
    "subject b initial: 1 | map { $0 * 2 } | take 1 | print",
    "combineLatest(subject a initial: 1, subject b initial: \"x\" | map { $0 + \"!\" }) | take 1",
    "from 1 2 | tap \"t\" time: true | drain",
    "from 1 2 | tap \"t\" | print time: true",
    "range 1 5 | takeWhile { $0 % 2 == 1 } | print checked: true",
    "marble \"ab|\" | takeWhile { $0 != \"b\" } | dropWhile { $0 == \"x\" } | print",
    "from 1 2 | flatMap { from $0 } concurrency: 2 | takeWhile { $0 < 3 } | print",
    "timer 1 | flatMapLatest { marble \"ab|\" | takeWhile { $0 != \"b\" } } | take 3 | print",
    "from 3 | flatMapLatest { range 1 ($0 + 1) | map { 10 / $0 } | takeWhile { $0 > 1 } } | collect checked: true",
    "from 3 | flatMap { random 1 ($0 + 1) count: 2 seed: 1 } | collect",
    "from 3 | flatMap { random (0 - $0) -1 count: 2 seed: 1 } | collect checked: true",
    "from 3 | flatMapLatest { random $0 ($0 * 2) count: 2 } | collect", "random -5 -1 count: 3 | collect",
    "from 9 | flatMap { range 1 3 | take ($0 + 1) } concurrency: 2 | count checked: true",
    "marble \"abc;\" | map { acc in acc.count } | compactMap { $0 > 1 ? $0 * 2 : nil } | dropWhile { $0 % 2 == 0 }"
      + " | delay 0.005 | interspersed 3 | reduce 0 { $0 + $1 }",
    "from 1 2 3 | compactMap { $0 > 1 ? $0 * 2 : nil } | dropWhile { $0 % 2 == 0 } | map { $0 * 3 + 1 }"
      + " | filter { $0 % 2 == 1 } | sum",
    "from 2 | flatMap { range 1 ($0 * 5) | map { $0 * 2 } | filter { $0 > 3 } | compactMap { $0 % 3 == 0 ? nil : $0 } }"
      + " | collect",
  ]

  /// Each snippet in a file of its own, pasted as `swift` and Docs/export.md say, with nothing of it
  /// changed: what comes before the line `// In an async throwing function:` (the imports, notes
  /// and declarations; without that line, the imports) at the file's top level, the statements
  /// after it (up to the first blank line) in an async throwing function, and the helpers after
  /// them at the top level again.
  func writeSnippets() throws {
    let sources = Self.package.appendingPathComponent("Sources/Exported")
    for (index, pipeline) in (Self.snippets + Self.generated).enumerated() {
      let result = try Pipesh.run(["-c", "swift " + pipeline], stdin: nil, directory: TranscriptTests.directory)
      #expect(result.status == 0 && result.stderr.isEmpty, "swift \(pipeline): \(result.stderr)")
      #expect(
        !result.stdout.contains("ReportingOverflow") || pipeline.contains("checked: true"),
        "the snippet of \(pipeline) uses checked arithmetic")
      let pasted = try #require(
        Self.pasted(result.stdout, into: "func snippet\(index)() async throws"),
        "swift \(pipeline) has no statements:\n\(result.stdout)")
      try Self.write("// swift \(pipeline)\n" + pasted, to: sources.appendingPathComponent("Snippet\(index).swift"))
    }
    for (index, pipeline) in Self.plainSnippets.enumerated() {
      let result = try Pipesh.run(["-c", "swift \(pipeline) plain: true"], directory: TranscriptTests.directory)
      #expect(result.status == 0 && result.stderr.isEmpty, "swift \(pipeline) plain: true: \(result.stderr)")
      #expect(!result.stdout.contains("checked"), "the plain snippet of \(pipeline) checks:\n\(result.stdout)")
      let pasted = try #require(
        Self.pasted(result.stdout, into: "func plainSnippet\(index)() async throws"),
        "swift \(pipeline) plain: true has no statements:\n\(result.stdout)")
      try Self.write(
        "// swift \(pipeline) plain: true\n" + pasted, to: sources.appendingPathComponent("PlainSnippet\(index).swift"))
    }
  }

  /// The snippets whose plain form differs: those with a `flatMap` body (arguments from `$0`).
  static var plainSnippets: [String] {
    (snippets + generated).filter { $0.contains("flatMap") && !$0.contains("checked: true") }
  }

  /// `snippet` with its statements moved into the body of `function`, the rest where it is.
  static func pasted(_ snippet: String, into function: String) -> String? {
    let lines = snippet.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let marker = lines.firstIndex(of: "// In an async throwing function:") ?? lines.firstIndex(of: "")
    guard let marker else { return nil }
    let start = marker + 1
    let end = lines[start...].firstIndex(of: "") ?? lines.endIndex
    guard start < end else { return nil }
    let body = lines[start..<end].map { $0.isEmpty ? $0 : "  " + $0 }
    return (lines[..<start] + ["\(function) {"] + body + ["}"] + lines[end...]).joined(separator: "\n")
  }

  /// Writes `text` unless the file has it already, so an unchanged program is not compiled again.
  static func write(_ text: String, to file: URL) throws {
    if (try? String(contentsOf: file, encoding: .utf8)) == text { return }
    try text.write(to: file, atomically: true, encoding: .utf8)
  }
}

/// Runs a program to its end, as `Pipesh.run` runs pipesh.
enum Command {
  static func run(
    _ executable: String, _ arguments: [String], stdin: String? = nil, directory: URL? = nil, limit: Double
  ) throws -> Pipesh.Result {
    try Pipesh.run(
      arguments, stdin: stdin, directory: directory, limit: limit, executable: URL(fileURLWithPath: executable))
  }
}
