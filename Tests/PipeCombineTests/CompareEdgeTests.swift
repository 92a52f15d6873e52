import Foundation
import PipeShell
import Testing

/// `compare` of inputs that end or fail as they are subscribed to: a legal Combine input, which
/// OpenCombine 0.14.0's `Zip` completes before handing over its subscription. Every combinator over
/// such an input (also shared, inline or as a fragment), followed by every operator that fits its
/// element, must draw a table (a crash here ends the test process).
@Suite("compare of inputs that end at once")
struct CompareEdgeTests {
  static let ending = ["empty", "fail \"x\"", "range 1 0"]

  static let combinators: [String] = ending.flatMap { input in
    [
      "zip(\(input), from 1)", "zip(from 1, \(input))", "combineLatest(\(input), from 1)",
      "combineLatest(from 1, \(input))", "merge(\(input), from 1)", "merge(from 1, \(input))",
      "chain(\(input), from 1)", "chain(from 1, \(input))", "zip(\(input), from 1, \(input))",
    ]
  }

  /// Operators that take any element, and sinks.
  static let operators = [
    "filter { true }", "compactMap { $0 }", "takeWhile { true }", "dropWhile { false }", "removeDuplicates",
    "map { $0 }", "take 1", "drop 1", "throttle 1", "throttle 1 latest: false", "debounce 1", "delay 1",
    "timeout 3", "buffer 1", "buffer 1 policy: newest", "chunks 2", "chunks 2 every: 1", "chunked 1", "compacted",
    "adjacentPairs", "enumerated", "share", "tap \"t\"", "work 1", "count", "first", "last", "collect", "drain",
  ]

  /// The same inputs shared: inline, and as a `let` fragment the script defines first.
  static let sharedCombinators: [(definition: String, combinator: String)] = ending.flatMap { input in
    [
      ("", "zip(\(input) | share, from 1)"), ("", "merge(from 1, \(input) | share)"),
      ("let s = \(input) | share\n", "zip(s, from 1)"), ("let s = \(input) | share\n", "combineLatest(from 1, s)"),
    ]
  }

  static let allPipelines: [String] =
    combinators.flatMap { combinator in operators.map { "compare \(combinator) | \($0)" } }
    + sharedCombinators.flatMap { shared in
      operators.map { "\(shared.definition)compare \(shared.combinator) | \($0)" }
    }

  /// Under ThreadSanitizer (the suite's third pass, looking for races, not crashes of these
  /// inputs, which the first pass runs all of) every sixth of them.
  static let pipelines: [String] =
    ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil
    ? stride(from: 0, to: allPipelines.count, by: 6).map { allPipelines[$0] } : allPipelines

  @Test(arguments: pipelines)
  func drawsATable(_ line: String) async throws {
    let lines = await Shell.runExample(line)
    // A pipeline that does not check for this element (compactMap of an Int) says so; one that
    // checks draws its table, headed by the stage column.
    let checked = !lines.contains { $0.drop { $0 == " " }.hasPrefix("^~") }
    if checked {
      #expect(lines.contains { $0.hasPrefix("  STAGE ") }, "\(lines)")
    }
  }

  @Test func mostOfThemCheck() async {
    var drawn = 0
    for line in Self.pipelines.prefix(60) {
      let lines = await Shell.runExample(line)
      if lines.contains(where: { $0.hasPrefix("  STAGE ") }) { drawn += 1 }
    }
    #expect(drawn >= 40)
  }
}
