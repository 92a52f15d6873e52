import Foundation
import Testing

/// The `MarbleTesting` product from another package: a package generated beside the repository
/// (in `.build-marble-user/`, ignored by git, built in the export test's `.build-packages/`)
/// depends on this one by path and on swift-async-algorithms, has an operator of its own, and tests it with `expectMarbles` under
/// Swift Testing, one test holding and one failing on purpose; `swift test` there must report the
/// holding one as passed and draw the failing one's lanes aligned under a ruler.
@Suite("MarbleTesting from another package", .serialized)
struct MarbleTestingPackageTests {
  static let root = ExportTests.root
  static let directory = root.appendingPathComponent(".build-marble-user")
  static let package = directory.appendingPathComponent("marble-user")

  static let manifest = """
    // swift-tools-version: 6.2
    import PackageDescription

    let package = Package(
      name: "marble-user",
      platforms: [.macOS(.v15)],
      dependencies: [
        .package(path: "\(root.path)"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
      ],
      targets: [
        .target(name: "Stutter"),
        .testTarget(
          name: "StutterTests",
          dependencies: [
            "Stutter", .product(name: "MarbleTesting", package: "\(root.lastPathComponent)"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
          ]),
      ],
      swiftLanguageModes: [.v6]
    )

    """

  static let operatorSource = """
    /// Repeats each element once more, `gap` after it came.
    public struct Stutter<Base: AsyncSequence, C: Clock>: AsyncSequence where Base.Element: Sendable {
      public typealias Element = Base.Element
      let base: Base
      let gap: C.Duration
      let clock: C

      public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let gap: C.Duration
        let clock: C
        var pending: Element?

        public mutating func next() async throws -> Element? {
          if let element = pending {
            pending = nil
            try await clock.sleep(for: gap)
            return element
          }
          guard let element = try await base.next() else { return nil }
          pending = element
          return element
        }
      }

      public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), gap: gap, clock: clock)
      }
    }

    extension Stutter: Sendable where Base: Sendable, C: Sendable {}

    extension AsyncSequence where Element: Sendable {
      /// Each element twice: when it comes, and `gap` later.
      public func stutter<C: Clock>(every gap: C.Duration, clock: C) -> Stutter<Self, C> {
        Stutter(base: self, gap: gap, clock: clock)
      }
    }

    """

  static let testSource = """
    import AsyncAlgorithms
    import MarbleTesting
    import Stutter
    import Testing

    @Test func stutterRepeatsEachElementAStepLater() async throws {
      await expectMarbles("aabb-c[c|]") { clock in
        try! MarbleInput("a-b--c|", clock: clock).stutter(every: .seconds(1), clock: clock)
      }
    }

    @Test func stutterThenDebounceFailsOnPurpose() async throws {
      await expectMarbles("-----b-c|") { clock in
        try! MarbleInput("a-b--c|", clock: clock).stutter(every: .seconds(1), clock: clock)
          .debounce(for: .seconds(2), clock: clock)
      }
    }

    """

  /// A script whose expectations fail, for `pipesh --emit-test`.
  static let failingScript = """
    # throttle's window keeps its first element with latest: false, not the latest.
    expect marble "abcdefghijk|" | throttle 2 latest: false == "a-c-e-g-i-k|"
    # No order puts b first.
    expect merge(marble "a-|", marble "-b|") == "ba|" in: every order

    """

  /// A script whose expectations hold, over operators that take a closure: Swift's
  /// `prefix(while:)` rethrows where its input (a marble) can fail, so its test makes it with `try`.
  static let closuresScript = """
    expect marble "1-2-3|" | takeWhile { $0 < "3" } == "1-2-|"
    expect marble "1-2-3|" | dropWhile { $0 < "2" } == "--2-3|"
    expect marble "1-2-3|" | filter { $0 != "2" } == "1---3|"
    expect marble "1-2-3|" | compactMap { $0 } == "1-2-3|"
    expect marble "1-2-3|" | reductions "" { $0 + $1 } == "1-'12'-'123'|"
    expect from 1 2 3 | takeWhile { $0 < 3 } == "[12|]"
    expect from 1 2 1 | chunked { $0 <= $1 } prints [1, 2] [1]
    expect from 1 2 | flatMap { from $0 $0 $0 } concurrency: 1 == "[111222|]"

    """

  /// Expectations at one instant, whose tests `--emit-test` writes in every order or not at all.
  static let ordersScript = """
    expect from 1 2 | flatMap { timer 1 | take $0 } concurrency: 2 == "[00][1|]"
    expect from 1 2 | flatMap { timer 1 | take $0 } concurrency: 2 == "[00][1|]" in: every order
    expect merge(marble "a-|", marble "-b|") == "ab|" in: every order
    expect merge(marble "a-|", marble "-b|") prints "a" "b" in: every order
    expect from 1 2 | flatMap { from $0 $0 $0 } concurrency: 2 == "[112122|]"
    expect merge(marble "a|", marble "b|") prints "a" "b" in: every order
    expect zip(marble "ab|", marble "xy|") | map { $0.0 + $0.1 } == "'ax''by'|" in: every order

    """

  /// `pipesh --emit-test` of a script: the Swift Testing file it writes.
  static func emittedTests(_ script: URL) throws -> String {
    let emitted = try Pipesh.run(
      ["--emit-test", script.lastPathComponent], directory: script.deletingLastPathComponent())
    #expect(emitted.status == 0, "\(emitted.stderr)")
    return emitted.stdout
  }

  @Test func anOperatorOfTheUsersOwnIsTestedWithSwiftTesting() throws {
    let failing = Self.directory.appendingPathComponent("failing-expectation.pipe")
    try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
    try ExportTests.write(Self.failingScript, to: failing)
    let closures = Self.directory.appendingPathComponent("closures.pipe")
    try ExportTests.write(Self.closuresScript, to: closures)
    let orders = Self.directory.appendingPathComponent("orders.pipe")
    try ExportTests.write(Self.ordersScript, to: orders)
    let generated = Self.directory.appendingPathComponent("generated.pipe")
    try ExportTests.write(GeneratedExpectations.script(seed: 48, count: 40), to: generated)
    // What pipesh says of each generated expectation, by line.
    let verdicts = try Self.verdicts(generated)
    // The expectations of scripts, as pipesh --emit-test writes them, run in the same package.
    let files = [
      "Package.swift": Self.manifest, "Sources/Stutter/Stutter.swift": Self.operatorSource,
      "Tests/StutterTests/StutterTests.swift": Self.testSource,
      "Tests/StutterTests/MarbleTests.swift": try Self.emittedTests(
        TranscriptTests.examples.appendingPathComponent("marble-tests.pipe")),
      "Tests/StutterTests/Failing.swift": try Self.emittedTests(failing),
      "Tests/StutterTests/Closures.swift": try Self.emittedTests(closures),
      "Tests/StutterTests/Orders.swift": try Self.emittedTests(orders),
      "Tests/StutterTests/Generated.swift": try Self.emittedTests(generated),
    ]
    for (path, text) in files {
      let file = Self.package.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try ExportTests.write(text, to: file)
    }
    let scratch =
      [
        "--package-path", Self.package.path, "--scratch-path", ExportTests.scratch.path,
      ] + ExportTests.buildFlags
    let build = try Command.run("/usr/bin/env", ["swift", "build", "--build-tests"] + scratch, limit: 900)
    #expect(build.status == 0, "the package does not build:\n\(build.stdout)\(build.stderr)")
    guard build.status == 0 else { return }
    let test = try Command.run(
      "/usr/bin/env", ["swift", "test", "--skip-build", "--skip", "generatedLine"] + scratch, limit: 300)
    let output = test.stdout + test.stderr
    let generatedRun = try Command.run(
      "/usr/bin/env", ["swift", "test", "--skip-build", "--filter", "generatedLine"] + scratch, limit: 300)
    let generatedOutput = generatedRun.stdout + generatedRun.stderr
    #expect(test.status != 0, "one test fails on purpose:\n\(output)")
    #expect(output.contains("✔ Test stutterRepeatsEachElementAStepLater() passed"), "\(output)")
    let drawing = """
      ↳ at step 6: expected 'b', got nothing
                  1   5
        expected  -----b-    c|
        actual    ------[c|]
                       ^
      """
    #expect(output.contains(drawing), "\(output)")
    #expect(output.contains("✘ Test stutterThenDebounceFailsOnPurpose() failed"), "\(output)")
    // Every expectation of marble-tests.pipe that --emit-test writes holds in Swift too (its ends
    // and fails claims and the one with a reduce sink are left out, with a warning), and so do
    // the 8 of closures.pipe and the 5 of orders.pipe whose every order says the same (the zip's
    // test, cut at its horizon, ran more than 10000 orders while the horizon's task was a choice).
    let emitted = output.split(separator: "\n").filter { $0.hasPrefix("✔ Test \"") && $0.contains(" expect ") }
    #expect(emitted.count == 17 + 8 + 5, "\(output)")
    // Each generated expectation that became a test holds or fails as pipesh says it does.
    let generatedPassed = Self.generatedTests(generatedOutput, passed: true)
    let generatedFailed = Self.generatedTests(generatedOutput, passed: false)
    #expect(!generatedPassed.isEmpty && !generatedFailed.isEmpty, "\(generatedOutput)")
    for line in generatedPassed { #expect(verdicts[line] == true, "line \(line) holds in Swift, not in pipesh") }
    for line in generatedFailed { #expect(verdicts[line] == false, "line \(line) fails in Swift, not in pipesh") }
    // Those left out are those whose orders disagree: some remain, and pipesh said why.
    let written = try Self.emittedTests(generated).components(separatedBy: "@Test(").count - 1
    #expect(generatedPassed.count + generatedFailed.count == written, "\(generatedOutput)")
    #expect(written < verdicts.count, "no generated expectation had orders that disagree")
    #expect(
      output.contains(#"✘ Test "4:1 expect merge(marble "a-|", marble "-b|") == "ba|" in: every order""#),
      "\(output)")
    #expect(output.contains("in order 1 of every order (order: o0"), "\(output)")
    let failed = """
      ↳ at step 3: expected 'c', got 'b'
                  1   5    10
        expected  a-c-e-g-i-k|
        actual    a-b-d-f-h-j|
                    ^
      """
    #expect(output.contains(failed), "\(output)")
    #expect(output.contains(#"✘ Test "2:1 expect marble "abcdefghijk|" | throttle 2 latest: false =="#), "\(output)")
  }

  /// What `pipesh --expectations` says of each expectation of a script: held or not, by line.
  static func verdicts(_ script: URL) throws -> [Int: Bool] {
    let file = script.deletingPathExtension().appendingPathExtension("jsonl")
    try? FileManager.default.removeItem(at: file)
    let run = try Pipesh.run(
      ["--expectations", file.lastPathComponent, script.lastPathComponent],
      directory: script.deletingLastPathComponent())
    #expect(run.status <= 1, "\(run.stderr)")
    var verdicts: [Int: Bool] = [:]
    for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      if let number = object?["line"] as? Int, let passed = object?["passed"] as? Bool { verdicts[number] = passed }
    }
    return verdicts
  }

  /// The lines of the expectations whose tests passed (or failed), from `swift test`'s output.
  static func generatedTests(_ output: String, passed: Bool) -> [Int] {
    let mark = passed ? "✔ Test \"" : "✘ Test \""
    let ending = passed ? "passed after" : "failed after"
    return output.split(separator: "\n").compactMap { line -> Int? in
      guard line.hasPrefix(mark), line.contains(ending), line.contains(" expect "),
        let colon = line.dropFirst(mark.count).firstIndex(of: ":")
      else { return nil }
      return Int(line[line.index(line.startIndex, offsetBy: mark.count)..<colon])
    }
  }

  /// `Examples/SearchField`, a search field's view model on swift-async-algorithms, probed and
  /// tested as a user's package is: its tests hold, the trace its probes write is the one checked in
  /// beside it (Docs/probe.md draws that one), and pipesh draws it.
  @Test func theSearchFieldExampleHoldsAndItsTraceIsTheOneInTheDocs() throws {
    let example = Self.root.appendingPathComponent("Examples/SearchField")
    let scratch = ["--package-path", example.path, "--scratch-path", ExportTests.scratch.path] + ExportTests.buildFlags
    let build = try Command.run("/usr/bin/env", ["swift", "build", "--build-tests"] + scratch, limit: 900)
    #expect(build.status == 0, "the example does not build:\n\(build.stdout)\(build.stderr)")
    guard build.status == 0 else { return }
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("search-field-\(UUID()).trace")
    defer { try? FileManager.default.removeItem(at: trace) }
    let test = try Pipesh.run(
      ["swift", "test", "--skip-build"] + scratch, environment: ["SEARCH_FIELD_TRACE": trace.path], limit: 300,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
    let output = test.stdout + test.stderr
    #expect(test.status == 0, "\(output)")
    #expect(output.contains("✔ Test run with 2 tests"), "\(output)")
    let checkedIn = try String(contentsOf: example.appendingPathComponent("search.trace"), encoding: .utf8)
    #expect(try String(contentsOf: trace, encoding: .utf8) == checkedIn, "search.trace is not what the example writes")
    let drawn = try Pipesh.run(["-c", "draw \"\(trace.path)\""])
    #expect(drawn.status == 0, "\(drawn.stderr)")
    #expect(
      ProbeTraceTests.lanes(drawn.stdout, labels: ["results", "queries"]).map {
        $0.replacingOccurrences(of: " ", with: "")
      }
        == ["-------------5|", "----'swi'---'swift'-----|"], "\(drawn.stdout)")
  }
}
