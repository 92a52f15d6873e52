import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `pipesh test [PATH…] [--junit FILE]` on real directories of `.pipe` files: the report's lines,
/// its last line and status, and the JUnit file, read as XML.
@Suite("pipesh test")
struct TestRunnerTests {
  /// A fresh directory holding `files` (path below it → text); removed by the caller.
  static func tree(_ files: [String: String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-test-runner-\(UUID())")
    for (path, text) in files {
      let file = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: file, atomically: true, encoding: .utf8)
    }
    return root
  }

  /// A passing file, a file failing at run time, one that does not parse, nested; a hidden directory
  /// and a file of another kind that are not tests.
  static let mixed = [
    "ok.pipe": "from 1 2 3 | print\n",
    "sub/runtime.pipe": "timer 1 | take 2 | print time: true\nfrom 1 | map { $0 / 0 } | print\n",
    "sub/deeper/parse.pipe": "from 1 | nosuch\n",
    "sub/deeper/also-ok.pipe": "marble \"ab|\" | count\n",
    ".hidden/not-a-test.pipe": "from 1 | map { $0 / 0 } | print\n",
    "sub/notes.txt": "not a test\n",
  ]

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test func aLinePerFileInPathOrderWithTheFailuresDrawnUnderThemAndTheCountsLast() throws {
    let root = try Self.tree(Self.mixed)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(["test"], directory: root)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(
      Self.lines(result.stdout) == [
        "PASS  ok.pipe",
        "PASS  sub/deeper/also-ok.pipe",
        "FAIL  sub/deeper/parse.pipe (did not run, status 2)",
        "    parse.pipe:1:10: error: unknown operator 'nosuch'",
        "    from 1 | nosuch",
        "             ^~~~~~",
        "    note: 'ops' lists the operators",
        "FAIL  sub/runtime.pipe (failed at run time, status 1)",
        "    error: [2] map { $0 / 0 }: division by zero",
        "  output:",
        // On the virtual clock: whole seconds.
        "    +1.000s 0",
        "    +2.000s 1",
        "2 passed, 2 failed",
        "",
      ])
  }

  @Test func thePathsAreShownAsGivenAndAFileGivenIsATestWhateverItsName() throws {
    let root = try Self.tree(Self.mixed)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(["test", "sub/deeper/", "ok.pipe", "sub/notes.txt"], directory: root)
    #expect(result.status == 1)
    let fileLines = Self.lines(result.stdout).filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }
    #expect(
      fileLines == [
        "PASS  ok.pipe",
        "PASS  sub/deeper/also-ok.pipe",
        "FAIL  sub/deeper/parse.pipe (did not run, status 2)",
        "FAIL  sub/notes.txt (did not run, status 2)",
      ])
    #expect(result.stdout.hasSuffix("\n2 passed, 2 failed\n"))
    // A file found by two PATHs runs once.
    let twice = try Pipesh.run(
      ["test", "ok.pipe", "ok.pipe", "sub/deeper/also-ok.pipe", "sub/deeper"], directory: root)
    #expect(
      Self.lines(twice.stdout).filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") } == [
        "PASS  ok.pipe", "PASS  sub/deeper/also-ok.pipe", "FAIL  sub/deeper/parse.pipe (did not run, status 2)",
      ])
    #expect(twice.stdout.hasSuffix("\n2 passed, 1 failed\n"), "\(twice.stdout)")
  }

  @Test func everyTestPassingIsStatusZeroAndTheReportIsTheSameBytesEveryRun() throws {
    var files: [String: String] = [:]
    for index in 1...9 {
      files["t\(index).pipe"] = "timer \(index) | take \(10 - index) | map { $0 * \(index) } | print time: true\n"
    }
    let root = try Self.tree(files)
    defer { try? FileManager.default.removeItem(at: root) }
    let first = try Pipesh.run(["test"], directory: root)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(Self.lines(first.stdout).filter { $0.hasPrefix("PASS") } == (1...9).map { "PASS  t\($0).pipe" })
    #expect(first.stdout.hasSuffix("\n9 passed, 0 failed\n"))
    for _ in 1...3 {
      #expect(try Pipesh.run(["test"], directory: root).stdout == first.stdout)
    }
  }

  /// A script whose job never ends (on the virtual clock, paced at the real clock's speed once the
  /// script is done) is stopped at the time limit and fails, with what it said; what it printed
  /// depends on when it was stopped and is left out of the report. The limit is wall time for
  /// each file: 5 s, so that `ok.pipe` passes within it on a loaded machine under ThreadSanitizer
  /// (0.5 s did not, beside the other suites).
  @Test func aTestStillRunningAtTheTimeLimitIsStoppedAndFails() throws {
    let root = try Self.tree(["forever.pipe": "timer 1 | print &\n", "ok.pipe": "from 1 | print\n"])
    defer { try? FileManager.default.removeItem(at: root) }
    let (document, result) = try Self.junit(root, ["--timeout", "5"])
    #expect(result.status == 1)
    let lines = Self.lines(result.stdout)
    #expect(lines.first == "FAIL  forever.pipe (stopped after 5 s, the --timeout limit)")
    #expect(lines.dropFirst().first?.hasPrefix("    pipesh: the script is done, but job 1 may run for ever") == true)
    #expect(!result.stdout.contains("output:"))
    #expect(lines.suffix(3) == ["PASS  ok.pipe", "1 passed, 1 failed", ""])
    let error = try #require(try document.nodes(forXPath: "//testsuite[@name='forever.pipe']/testcase/error").first)
    #expect(Self.attribute(error, "message") == "stopped after 5 s, the --timeout limit")
  }

  /// A file that printed more than a script may hold (16 MiB) before it was stopped: the JUnit file
  /// keeps the last 64 kB of its output, from the first whole line, and says how much went before.
  @Test func aFloodingTestKeepsTheEndOfItsOutput() throws {
    // 1,100 lines of 16 kB: 17.6 MB in about a second, then a job that runs until the time limit.
    let long = String(repeating: "x", count: 16_000)
    let root = try Self.tree(["flood.pipe": "range 1 1100 | map { \"\(long)\\($0)\" } | print\ntimer 1 | print &\n"])
    defer { try? FileManager.default.removeItem(at: root) }
    let (document, result) = try Self.junit(root, ["--timeout", "3"])
    #expect(result.status == 1)
    #expect(Self.lines(result.stdout).first == "FAIL  flood.pipe (stopped after 3 s, the --timeout limit)")
    let output = try #require(try document.nodes(forXPath: "//testsuite[@name='flood.pipe']/system-out").first)
    let text = try #require(output.stringValue)
    #expect(!text.contains("cannot read"), "\(text.prefix(200))")
    #expect(text.hasPrefix("(the ") && text.contains(" bytes before these were left out)\n"), "\(text.prefix(200))")
    #expect(text.contains(long + "1100\n"))
    #expect(text.utf8.count <= 65_536 + 100)
  }

  /// Ctrl-C sent to pipesh test alone (as a CI system cancelling a job may): it passes it on to the
  /// tests running, starts no other, prints what ran and ends with 130.
  @Test func anInterruptIsPassedOnToTheTestsRunningAndEndsTheRunWith130() throws {
    var files = ["a.pipe": "from 1 | print\n"]
    // Never end by themselves (no time limit below): only the interrupt ends them.
    for name in ["b", "c", "d"] { files["\(name).pipe"] = "timer 1 | print &\n" }
    let root = try Self.tree(files)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(
      ["test", "--timeout", "0", "--junit", "report.xml"], directory: root, limit: 60, interruptWhen: "PASS  a.pipe")
    #expect(!result.timedOut)
    #expect(result.status == 130)
    let lines = Self.lines(result.stdout)
    #expect(lines.first == "PASS  a.pipe")
    #expect(lines.last == "" && lines.dropLast().last?.hasPrefix("1 passed, ") == true, "\(result.stdout)")
    #expect(result.stderr.hasPrefix("pipesh test: interrupted"), "\(result.stderr)")
    // The JUnit file holds what ran.
    let document = try XMLDocument(contentsOf: root.appendingPathComponent("report.xml"), options: [])
    #expect(try document.nodes(forXPath: "/testsuites/testsuite").first.map { Self.attribute($0, "name") } == "a.pipe")
  }

  @Test func aTestRunsInItsOwnDirectory() throws {
    let root = try Self.tree([
      "sub/words.txt": "a\nb\nc\n",
      "sub/lines.pipe": "lines \"words.txt\" | count\n",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(["test", "sub"], directory: root)
    #expect(result.stdout == "PASS  sub/lines.pipe\n1 passed, 0 failed\n", "\(result.stdout)")
    #expect(result.status == 0)
  }

  @Test func aScriptNamedTestIsATestAfterTheCommandAndRunsAsDotSlashTest() throws {
    let root = try Self.tree(["test": "from \"named test\" | print\n"])
    defer { try? FileManager.default.removeItem(at: root) }
    let tested = try Pipesh.run(["test", "test"], directory: root)
    #expect(tested.stdout == "PASS  test\n1 passed, 0 failed\n")
    let run = try Pipesh.run(["./test"], directory: root)
    #expect(run.stdout == "named test\n")
  }

  @Test(arguments: [
    (["test", "ok.pipe", "missing"], "'missing'"),
    (["test", "empty"], "no .pipe files in 'empty'"),
    (["test", "ok.pipe", "--junit", "no/such/dir/report.xml"], "'no/such/dir/report.xml'"),
    (["test", "--junit"], "Missing value for '--junit <FILE>'"),
  ])
  func aPathOrJUnitFileThatCannotBeUsedIsAUsageErrorBeforeAnyTestRuns(_ arguments: [String], _ named: String) throws {
    // ok.pipe writes a file when it runs: it must not have.
    let root = try Self.tree(["ok.pipe": "trace from 1 to: \"ran.trace\"\n", "empty/notes.txt": "\n"])
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(arguments, directory: root)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.contains(named), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("ran.trace").path))
  }
}

extension TestRunnerTests {
  /// Runs `pipesh test` with `--junit` in `root` and parses the file.
  static func junit(_ root: URL, _ paths: [String] = []) throws -> (XMLDocument, Pipesh.Result) {
    let result = try Pipesh.run(["test", "--junit", "report.xml"] + paths, directory: root)
    let text = try String(contentsOf: root.appendingPathComponent("report.xml"), encoding: .utf8)
    return (try XMLDocument(xmlString: text, options: []), result)
  }

  static func attribute(_ node: XMLNode, _ name: String) -> String? {
    (node as? XMLElement)?.attribute(forName: name)?.stringValue
  }

  @Test func theJUnitFileHasASuitePerFileACasePerTestAndTheFailuresAndErrors() throws {
    let root = try Self.tree(Self.mixed)
    defer { try? FileManager.default.removeItem(at: root) }
    let (document, result) = try Self.junit(root)
    #expect(result.status == 1)
    let top = try #require(document.rootElement())
    #expect(top.name == "testsuites")
    #expect(Self.attribute(top, "tests") == "4")
    #expect(Self.attribute(top, "failures") == "1")
    #expect(Self.attribute(top, "errors") == "1")
    let suites = try document.nodes(forXPath: "/testsuites/testsuite")
    #expect(
      suites.map { Self.attribute($0, "name") } == [
        "ok.pipe", "sub/deeper/also-ok.pipe", "sub/deeper/parse.pipe", "sub/runtime.pipe",
      ])
    for suite in suites {
      let cases = try suite.nodes(forXPath: "testcase")
      #expect(cases.count == 1)
      #expect(Self.attribute(suite, "tests") == "1")
      #expect(cases.map { Self.attribute($0, "name") } == [Self.attribute(suite, "name")])
      #expect(Double(Self.attribute(suite, "time") ?? "") != nil)
    }
    #expect(try suites[0].nodes(forXPath: "testcase/*").isEmpty)
    #expect(try suites[0].nodes(forXPath: "system-out").first?.stringValue == "1\n2\n3\n")
    let error = try #require(try suites[2].nodes(forXPath: "testcase/error").first)
    #expect(Self.attribute(error, "message") == "did not run, status 2")
    #expect(error.stringValue?.hasPrefix("parse.pipe:1:10: error: unknown operator 'nosuch'\n") == true)
    let failure = try #require(try suites[3].nodes(forXPath: "testcase/failure").first)
    #expect(Self.attribute(failure, "message") == "failed at run time, status 1")
    #expect(failure.stringValue == "error: [2] map { $0 / 0 }: division by zero\n")
    #expect(Self.attribute(suites[3], "failures") == "1" && Self.attribute(suites[3], "errors") == "0")
  }

  @Test func theJUnitFileEscapesWhatTheTestsPrint() throws {
    // A raw ESC in the script: print prints it as it is, an error message shows it as \u{1B}.
    let text = "a <b> & 'c' \\\"d\\\" \u{1B}[31m"
    let root = try Self.tree(["odd.pipe": "from \"\(text)\" | print\nfail \"\(text)\"\n"])
    defer { try? FileManager.default.removeItem(at: root) }
    let (document, result) = try Self.junit(root)
    #expect(result.status == 1)
    let failure = try #require(try document.nodes(forXPath: "//testcase/failure").first)
    #expect(failure.stringValue?.hasSuffix(": a <b> & 'c' \"d\" \\u{1B}[31m\n") == true, "\(failure.stringValue ?? "")")
    // The escape character itself, which XML cannot hold, is replaced.
    let output = try #require(try document.nodes(forXPath: "//system-out").first)
    #expect(output.stringValue == "a <b> & 'c' \"d\" \u{FFFD}[31m\n")
  }

}

extension TestRunnerTests {
  /// Files with `expect` statements: all holding, one failing among others (with output of its
  /// own), and all holding in a file that then fails at run time.
  static let expectations = [
    "holds.pipe": """
    expect timer 1 | take 3 == "01[2|]"
    expect from 1 2 3 | map { $0 * 10 } prints 10 20 30

    """,
    "sub/fails.pipe": """
    expect marble "ab-c|" | map { $0 + "!" } == "'a!' 'b!' - 'c!' |"
    expect marble "abcd----e---f-g----|" | debounce 3 == "------d----f-----g-|"
    from "printed" | print
    expect marble "abcd|" | drop 2 == "--cd|"

    """,
    "sub/runtime.pipe": """
    expect from 4 2 | map { 8 / $0 } prints 2 4
    from 0 | map { 8 / $0 } | print

    """,
  ]

  @Test func theReportCountsTheExpectationsAndDrawsTheFailedOne() throws {
    let root = try Self.tree(Self.expectations)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(["test"], directory: root)
    #expect(result.status == 1)
    #expect(
      Self.lines(result.stdout) == [
        "PASS  holds.pipe (2 expectations held)",
        "FAIL  sub/fails.pipe (1 of 3 expectations failed)",
        "    fails.pipe:2:54: error: expectation failed: at 12s: expected 'f', got 'e'",
        "    expect marble \"abcd----e---f-g----|\" | debounce 3 == \"------d----f-----g-|\"",
        "                                                         ^~~~~~~~~~~~~~~~~~~~~~",
        "              1s  5s   10s  15s  20s",
        "    expected  ------d----f-----g-|",
        "    actual    ------d----e-----g-|",
        "                         ^",
        "  output:",
        "    printed",
        "FAIL  sub/runtime.pipe (1 expectation held; failed at run time, status 1)",
        "    error: [2] map { 8 / $0 }: division by zero",
        "1 passed, 2 failed",
        "",
      ])
  }

  @Test func verboseShowsALinePerExpectationThatHolds() throws {
    let root = try Self.tree(Self.expectations)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Pipesh.run(["test", "-v", "holds.pipe"], directory: root)
    #expect(result.status == 0)
    #expect(
      Self.lines(result.stdout) == [
        "PASS  holds.pipe (2 expectations held)",
        "  output:",
        "    ok 1:1: expect timer 1 | take 3 == \"01[2|]\"",
        "    ok 2:1: expect from 1 2 3 | map { $0 * 10 } prints 10 20 30",
        "1 passed, 0 failed",
        "",
      ])
  }

  @Test func theJUnitFileHasACasePerExpectationWithTheFailureDrawn() throws {
    let root = try Self.tree(Self.expectations)
    defer { try? FileManager.default.removeItem(at: root) }
    let (document, result) = try Self.junit(root)
    #expect(result.status == 1)
    let top = try #require(document.rootElement())
    #expect(Self.attribute(top, "tests") == "7")
    #expect(Self.attribute(top, "failures") == "2")
    #expect(Self.attribute(top, "errors") == "0")
    let suites = try document.nodes(forXPath: "/testsuites/testsuite")
    #expect(suites.map { Self.attribute($0, "name") } == ["holds.pipe", "sub/fails.pipe", "sub/runtime.pipe"])
    let names = try suites.map { suite in try suite.nodes(forXPath: "testcase").map { Self.attribute($0, "name") } }
    #expect(
      names == [
        ["1:1 expect timer 1 | take 3 == \"01[2|]\"", "2:1 expect from 1 2 3 | map { $0 * 10 } prints 10 20 30"],
        [
          "1:1 expect marble \"ab-c|\" | map { $0 + \"!\" } == \"'a!' 'b!' - 'c!' |\"",
          "2:1 expect marble \"abcd----e---f-g----|\" | debounce 3 == \"------d----f-----g-|\"",
          "4:1 expect marble \"abcd|\" | drop 2 == \"--cd|\"",
        ],
        ["1:1 expect from 4 2 | map { 8 / $0 } prints 2 4", "sub/runtime.pipe"],
      ])
    // The failed expectation: its message, and the drawing as its text.
    let failures = try suites[1].nodes(forXPath: "testcase/failure")
    #expect(failures.count == 1)
    let failure = try #require(failures.first)
    #expect(Self.attribute(failure, "message") == "at 12s: expected 'f', got 'e'")
    #expect(
      failure.stringValue
        == "          1s  5s   10s  15s  20s\nexpected  ------d----f-----g-|\nactual    ------d----e-----g-|\n"
        + String(repeating: " ", count: 21) + "^")
    #expect(try failure.nodes(forXPath: "..").first.map { Self.attribute($0, "name") } == names[1][1])
    #expect(Self.attribute(suites[1], "tests") == "3" && Self.attribute(suites[1], "failures") == "1")
    // The run's failure after its expectations held is a testcase of its own.
    let runFailure = try #require(try suites[2].nodes(forXPath: "testcase/failure").first)
    #expect(Self.attribute(runFailure, "message") == "failed at run time, status 1")
  }
}
