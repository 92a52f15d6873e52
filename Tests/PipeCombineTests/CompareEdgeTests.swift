import Foundation
import PipeShell
import Testing

/// `compare` of inputs that end or fail as they are subscribed to: a legal Combine input, which
/// OpenCombine 0.14.0's `Zip` completes before handing over its subscription. Every combinator over
/// such an input, followed by every operator that fits its element, must draw a table (a crash
/// here ends the test process).
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

  static let pipelines: [String] = combinators.flatMap { combinator in
    operators.map { "compare \(combinator) | \($0)" }
  }

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
