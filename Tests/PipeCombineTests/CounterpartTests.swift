import Foundation
import OpenCombine
import PipeCombine
import PipeRuntime
import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// `compare`'s Combine column, pair by pair: each case is a pipesh pipeline, the line Combine's
/// documented behaviour gives for its last stage (OpenCombine's own test expectations and Apple's
/// documentation are the sources, quoted per case), and a small OpenCombine program of the tests'
/// own that must draw the same line on a virtual scheduler.
@Suite("Combine counterparts")
struct CounterpartTests {
  /// One pair: pipesh's stage and the Combine line it must give.
  struct Case: CustomTestStringConvertible, Sendable {
    let pipeline: String
    let combine: String
    let program: @Sendable (CombineProgram) -> String
    var testDescription: String { pipeline }

    init(_ pipeline: String, _ combine: String, program: @escaping @Sendable (CombineProgram) -> String) {
      self.pipeline = pipeline
      self.combine = combine
      self.program = program
    }
  }

  static let cases: [Case] = [
    Case("marble \"abc|\" | map { $0 + \"!\" }", "'a!' 'b!' 'c!'|") { p in
      p.draw(p.marble("abc|").map { $0 + "!" })
    },
    Case("marble \"abcb|\" | filter { $0 == \"b\" }", "-b-b|") { p in p.draw(p.marble("abcb|").filter { $0 == "b" }) },
    Case("marble \"a1b|\" | compactMap { int($0) }", "-1-|") { p in
      p.draw(p.marble("a1b|").compactMap { Int($0) })
    },
    // OpenCombine's OutputTests.testBasicBehavior: output(in: 3..<7) finishes on the 8th element.
    Case("marble \"abcd|\" | take 2", "ab|") { p in p.draw(p.marble("abcd|").prefix(2)) },
    Case("marble \"ab|\" | take 2", "ab|") { p in p.draw(p.marble("ab|").prefix(2)) },
    Case("marble \"abcd|\" | drop 2", "--cd|") { p in p.draw(p.marble("abcd|").dropFirst(2)) },
    Case("marble \"abcb|\" | takeWhile { $0 < \"c\" }", "ab|") { p in
      p.draw(p.marble("abcb|").prefix { $0 < "c" })
    },
    Case("marble \"abcb|\" | dropWhile { $0 < \"c\" }", "--cb|") { p in
      p.draw(p.marble("abcb|").drop { $0 < "c" })
    },
    Case("marble \"aab-bb-a|\" | removeDuplicates", "a-b----a|") { p in
      p.draw(p.marble("aab-bb-a|").removeDuplicates())
    },
    Case("marble \"abc|\" | reductions \"\" { $0 + $1 }", "a'ab' 'abc'|") { p in
      p.draw(p.marble("abc|").scan("") { $0 + $1 })
    },
    // "Converts any failure from the upstream publisher into a new error": the elements pass, the
    // failure comes at the same step.
    Case("marble \"ab-^\" | mapError { \"lookup: \" + $0 }", "ab-^") { p in
      p.draw(p.marble("ab-^").mapError { $0 })
    },
    // "Publishes either the most-recent or first element published by the upstream publisher in
    // the specified time interval": the window's element goes out when the window ends.
    Case("marble \"a-b-c--d|\" | throttle 3", "a--b--c--[d|]") { p in
      p.draw(p.marble("a-b-c--d|").throttle(for: .seconds(3), scheduler: p.scheduler, latest: true))
    },
    Case("marble \"abcdefghijk|\" | throttle 2 latest: false", "a-b-d-f-h-j|") { p in
      p.draw(p.marble("abcdefghijk|").throttle(for: .seconds(2), scheduler: p.scheduler, latest: false))
    },
    // "Publishes elements only after a specified time interval elapses between events"; at the
    // end, Combine finishes at once (the pending d is dropped).
    Case("marble \"ab-c---d|\" | debounce 1.5", "--b-c---|") { p in
      p.draw(p.marble("ab-c---d|").debounce(for: .seconds(1.5), scheduler: p.scheduler))
    },
    // "If either upstream publisher finishes successfully or fails with an error, the zipped
    // publisher does the same" (once nothing it holds can still be paired).
    Case("zip(marble \"ab-|\", marble \"c-d-e|\")", "'(\"a\", \"c\")'-'(\"b\", \"d\")'|") { p in
      p.draw(p.marble("ab-|").zip(p.marble("c-d-e|"))) { "(\"\($0.0)\", \"\($0.1)\")" }
    },
    // The first input ends holding b: the zip waits for d to pair it, then finishes.
    Case("zip(marble \"ab|\", marble \"c---d-e|\")", "'(\"a\", \"c\")'---['(\"b\", \"d\")'|]") { p in
      p.draw(p.marble("ab|").zip(p.marble("c---d-e|"))) { "(\"\($0.0)\", \"\($0.1)\")" }
    },
    Case("zip(marble \"a^\", marble \"-b|\")", "-^") { p in
      p.draw(p.marble("a^").zip(p.marble("-b|"))) { "(\"\($0.0)\", \"\($0.1)\")" }
    },
    // append: the second publisher is subscribed when the first finishes, so its time starts then.
    Case("chain(marble \"ab|\", marble \"cd|\")", "ab-cd|") { p in p.draw(p.marble("ab|").append(p.marble("cd|"))) },
    // "Delays delivery of all output to the downstream receiver": the finish too.
    Case("marble \"a-b|\" | delay 2", "--a-b|") { p in
      p.draw(p.marble("a-b|").delay(for: .seconds(2), scheduler: p.scheduler))
    },
    // "If customError is nil, the publisher completes normally."
    Case("marble \"a----b|\" | timeout 2", "a-|") { p in
      p.draw(p.marble("a----b|").timeout(.seconds(2), scheduler: p.scheduler))
    },
    Case("marble \"abcd|\" | buffer 2 policy: newest", "abcd|") { p in
      p.draw(p.marble("abcd|").buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest))
    },
    Case("marble \"abcde|\" | chunks 2 | map { $0.joined() }", "-'ab'-'cd'-[e|]") { p in
      p.draw(p.marble("abcde|").collect(2).map { $0.joined() })
    },
    Case("marble \"abc|\" | count", "---[3|]") { p in p.draw(p.marble("abc|").count()) },
    Case("marble \"bca|\" | min", "---[a|]") { p in p.draw(p.marble("bca|").min()) },
    Case("marble \"bca|\" | max", "---[c|]") { p in p.draw(p.marble("bca|").max()) },
    Case("marble \"abc|\" | first", "[a|]") { p in p.draw(p.marble("abc|").first()) },
    Case("marble \"abc|\" | last", "---[c|]") { p in p.draw(p.marble("abc|").last()) },
    Case("marble \"ab|\" | collect", "--['[\"a\", \"b\"]'|]") { p in
      p.draw(p.marble("ab|").collect()) { "[" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
    },
    Case("marble \"ab|\" | reduce \"\" { $0 + $1 }", "--['ab'|]") { p in
      p.draw(p.marble("ab|").reduce("") { $0 + $1 })
    },
    Case("marble \"ab|\" | drain", "--|") { p in p.draw(p.marble("ab|").ignoreOutput()) },
  ]

  /// The publishers OpenCombine 0.14.0 lacks, which pipesh writes itself: each case pins a
  /// statement of Apple's documentation (no OpenCombine program can check these).
  static let documented: [(pipeline: String, combine: String, statement: String)] = [
    (
      "merge(marble \"a-b|\", marble \"-c---d|\")", "acb--d|",
      "The merged publisher continues to emit elements until all upstream publishers finish."
    ),
    (
      "merge(marble \"a-b|\", marble \"-^\")", "a^",
      "If an upstream publisher produces an error, the merged publisher fails with that error."
    ),
    (
      "combineLatest(marble \"ab--c|\", marble \"--d|\")", "--'(\"b\", \"d\")'-'(\"c\", \"d\")'|",
      "The combined publisher doesn't produce elements until each of its upstream publishers publishes at least one element."
    ),
    (
      "combineLatest(marble \"|\", marble \"ab|\")", "--|",
      "All upstream publishers need to finish for this publisher to finish."
    ),
    (
      "combineLatest(marble \"a-^\", marble \"b|\")", "'(\"a\", \"b\")'-^",
      "If any of the combined publishers terminates with a failure, this publisher also fails."
    ),
    (
      "marble \"ab-c----d-|\" | chunks 2 every: 2.5 | map { $0.joined() }", "-'ab'--c----d|",
      "A grouping that collects and publishes items periodically or when a buffer reaches a maximum size."
    ),
    ("marble \"a|\" | chunks 5 every: 10 | map { $0.joined() }", "-[a|]", "(at the end, what was collected goes out)"),
    ("marble \"a^\" | chunks 5 every: 10 | map { $0.joined() }", "-^", "(a failure goes out at once)"),
  ]

  @Test(arguments: documented.indices)
  func ownPublisherFollowsTheDocumentation(_ index: Int) throws {
    let (pipeline, combine, statement) = Self.documented[index]
    #expect(try Self.combineLine(pipeline) == combine, "\(pipeline): \(statement)")
  }

  /// Combine's share connects at the first subscriber: a synchronous upstream sends everything to
  /// it before zip's second input subscribes, which gets only the end, so zip pairs nothing.
  @Test func shareConnectsAtTheFirstSubscriber() async throws {
    let program = CombineProgram()
    let shared = [1, 2, 3].publisher.share()
    #expect(program.draw(shared.zip(shared.map { $0 * 10 })) { "\($0)" } == "|")
    let lines = await Shell.runExample("let s = from 1 2 3 | share\ncompare zip(s, s | map { $0 * 10 })")
    // The row does not fit 100 columns: the AA line, then the Combine line under it.
    let row = try #require(lines.firstIndex { $0.contains("zip(s, s | map { $0 * 10 })") })
    let words = { (line: String) in line.split(separator: " ").map(String.init) }
    #expect(lines[row].hasPrefix("≠"), "\(lines)")
    #expect(lines[row].hasSuffix("AA        ['(1, 10)' '(2, 20)' '(3, 30)'|]"), "\(lines)")
    #expect(words(lines[row + 1]).suffix(2) == ["Combine", "|"], "\(lines)")
  }

  @Test(arguments: cases)
  func combineColumn(_ pair: Case) throws {
    let program = pair.program(CombineProgram())
    #expect(program == pair.combine, "the tests' own OpenCombine program")
    let drawn = try Self.combineLine(pair.pipeline)
    #expect(drawn == pair.combine, "compare's Combine column")
  }

  /// Every pipesh operator's counterpart (perhaps one saying there is none) says what it is.
  @Test func everyOperatorHasACounterpartEntry() {
    for kind in OperatorKind.allCases {
      #expect(!Counterparts.of(kind).name.isEmpty, "\(kind.name)")
    }
  }

  /// The Combine line of a pipeline's last stage, as `compare` draws it.
  static func combineLine(_ text: String) throws -> String {
    let source = SourceFile(name: nil, text: text)
    var checker = Checker(environment: Environment(commands: CommandTable([], topics: [])), source: source)
    let statement = try #require(Parser.parse(source, grammar: .pipesh).statements.first)
    guard case .run(let pipeline, _) = checker.check(statement) else {
      Issue.record("did not check: \(text)")
      return ""
    }
    let last = try #require(pipeline.stages.last { !$0.text.isEmpty && $0.range.start != $0.range.end })
    let result = CombineSide.run(pipeline, tick: .seconds(1), limit: .seconds(100), maximumEvents: 10_000)
    let row = try #require(result.rows.last { $0.text == last.text })
    guard case .drawn(let line) = row.outcome else {
      Issue.record("\(text): \(row.outcome)")
      return ""
    }
    return line
  }
}
