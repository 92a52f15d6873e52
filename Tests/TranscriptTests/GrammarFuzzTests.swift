import Foundation
import Testing

/// A seeded generator of pipesh statements: mostly well-formed pipelines over every operator, some
/// mangled (a token dropped, swapped or repeated). Every pipeline it makes ends: its sources are
/// finite or followed by `take`.
struct StatementGenerator {
  private var state: UInt64
  /// Short intervals for the real clock, any for the virtual one.
  let realClock: Bool

  init(seed: UInt64, realClock: Bool) {
    state = seed
    self.realClock = realClock
  }

  /// SplitMix64, as pipesh's own `random … seed:`.
  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  private mutating func pick(_ choices: [String]) -> String { choices[int(0...(choices.count - 1))] }

  private mutating func interval() -> String {
    realClock ? pick(["0.001", "2ms", "0.005", "0"]) : pick(["1", "0.5", "2.5", "250ms", "0", "3", "1e3"])
  }

  private mutating func closure() -> String {
    let k = int(-3...7)
    return pick([
      "{ $0 * \(k) }", "{ $0 + \(k) }", "{ \(k) / $0 }", "{ $0 % \(max(1, k)) }", "{ \"v\\($0)\" }", "{ $0 > \(k) }",
      "{ str($0) }", "{ $0 == \(k) ? nil : $0 }", "{ abs($0) }", "{ $0 - 9223372036854775807 }",
    ])
  }

  private mutating func predicate() -> String {
    pick(["{ $0 % 2 == 0 }", "{ $0 > \(int(0...4)) }", "{ $0 < \(int(0...6)) }", "{ true }", "{ $0 != 3 }"])
  }

  /// A finite source of integers.
  private mutating func source(depth: Int) -> String {
    switch int(0...(depth > 1 ? 6 : 9)) {
    case 0: return "from \(int(-5...5)) \(int(0...9)) \(int(0...3))"
    case 1: return "range \(int(-3...3)) \(int(0...12))"
    case 2: return "timer \(realClock ? "0.002" : pick(["1", "0.5", "2"])) | take \(int(0...5))"
    case 3:
      let tick = realClock ? " tick: 2ms" : ""
      return "marble \"\(pick(["ab-c|", "a--b", "-a-b^", "abc;", "[ab]-c|"]))\"\(tick) | map { $0.count }"
    case 4: return "random 1 6 count: \(int(0...5)) seed: \(int(1...9))"
    case 5: return "empty"
    case 6: return "fail \"boom\""
    case 7: return "merge(\(source(depth: depth + 1)), \(source(depth: depth + 1)))"
    case 8: return "chain(\(source(depth: depth + 1)), \(source(depth: depth + 1)))"
    default: return "(\(source(depth: depth + 1)) | \(integerStage()))"
    }
  }

  /// A stage that keeps the elements integers.
  private mutating func integerStage() -> String {
    switch int(0...17) {
    case 0: return "map { $0 * \(int(-2...3)) }"
    case 1: return "filter \(predicate())"
    case 2: return "take \(int(0...4))"
    case 3: return "drop \(int(0...3))"
    case 4: return "takeWhile \(predicate())"
    case 5: return "dropWhile \(predicate())"
    case 6: return "removeDuplicates"
    case 7: return "reductions 0 { $0 + $1 }"
    case 8: return "buffer \(int(1...3))\(pick(["", " policy: newest", " policy: oldest"]))"
    case 9: return "throttle \(interval())\(pick(["", " latest: false"]))"
    case 10: return "debounce \(interval())"
    case 11: return "delay \(interval() == "0" ? "1" : (realClock ? "0.002" : "1"))"
    case 12: return "tap \"t\"\(pick(["", " time: true"]))"
    case 13: return "work \(realClock ? "0.001" : pick(["1", "0.5"]))"
    case 14: return "share"
    case 15: return "flatMap { \(body()) }\(pick(["", " concurrency: \(int(1...3))"]))"
    case 16: return "flatMapLatest { \(body()) }"
    default: return "map \(pick(["{ $0 + 1 }", "{ 10 / $0 }", "{ -$0 }", "{ x in x * 2 }"]))"
    }
  }

  /// The body of a flatMap: a finite pipeline of integers whose arguments use the element (`take $0`
  /// fails the job for a negative one).
  private mutating func body() -> String {
    pick([
      "from $0 ($0 * 2)", "range 1 $0", "timer \(realClock ? "0.002" : pick(["1", "0.5"])) | take $0",
      "from $0 | map { $0 + 1 }", "range 0 9 | take ($0 % 3 + 2)",
    ])
  }

  /// A stage whose output may be any type, placed last before the sink.
  private mutating func lastStage() -> String {
    pick([
      "map \(closure())", "chunks \(int(1...3))", "adjacentPairs", "enumerated", "interspersed 0",
      "compactMap \(closure())",
      "chunks 2 every: \(realClock ? "0.01" : "2")", "timeout \(realClock ? "5" : "10")", "scan { $0 + $1 }",
      "reductions 0 { acc, x in acc + x }",
    ])
  }

  private mutating func sink() -> String {
    pick([
      "", "| print", "| count", "| sum", "| collect", "| first", "| last", "| drain", "| min", "| max",
      "| print label: \"x\" time: true", "| diagram", "| reduce 0 { $0 + $1 }",
    ])
  }

  /// A script of the third round's words: a stream, subject or channel read in the background while
  /// statements send to it and close it; or a pipeline traced or drawn to a file (`directory`), then
  /// replayed and drawn from its trace.
  mutating func script(in directory: String) -> String {
    let pipeline = source(depth: 1) + " | " + integerStage()
    let file = "\(directory)/f\(int(0...9999))"
    switch int(0...5) {
    case 0:
      return
        "stream s of: Int\(pick(["", " buffering: newest 2", " buffering: oldest 1"])) | \(integerStage()) | print &\n"
        + "stream s | take \(int(0...3)) | print &\nsend s 1 2 3\nclose s\nsend s 4\nwait"
    case 1: return "subject v initial: \(int(0...3)) | take \(int(1...3)) | print &\nsend v 5 6\nclose v\nwait"
    case 2: return "channel c of: Int | \(integerStage()) | print &\nsend c 1 2\nclose c\nwait"
    case 3:
      return
        "trace \(pipeline) to: \"\(file).trace\"\nreplay \"\(file).trace\"\ndraw \"\(file).trace\" to: \"\(file).svg\""
    case 4 where !realClock: return "draw \(pipeline) to: \"\(file).\(pick(["svg", "html"]))\""
    default: return "trace \(pipeline) to: \"\(file).\(pick(["svg", "html", "png"]))\""
    }
  }

  /// One statement: a pipeline, now and then `check`, `draw` or `trace` of one, or a mangled one.
  mutating func statement() -> String {
    var stages = [source(depth: 0)]
    for _ in 0..<int(0...3) { stages.append(integerStage()) }
    if int(0...2) == 0 { stages.append(lastStage()) }
    if int(0...3) == 0 { stages = ["zip(\(stages.joined(separator: " | ")), \(source(depth: 1)))"] }
    if int(0...4) == 0 { stages = ["combineLatest(\(stages.joined(separator: " | ")), \(source(depth: 1)))"] }
    var text = stages.joined(separator: " | ") + " " + sink()
    switch int(0...9) {
    case 0: text = "check " + stages.joined(separator: " | ")
    case 1 where !realClock: text = "draw " + stages.joined(separator: " | ")
    case 2: text = "trace " + stages.joined(separator: " | ")
    case 3: text = mangled(text)
    default: break
    }
    return text
  }

  /// The statement with one token dropped, doubled or replaced by a stray character.
  private mutating func mangled(_ text: String) -> String {
    var words = text.split(separator: " ").map(String.init)
    guard !words.isEmpty else { return text }
    let index = int(0...(words.count - 1))
    switch int(0...3) {
    case 0: words.remove(at: index)
    case 1: words.insert(words[index], at: index)
    case 2: words[index] = pick(["(", ")", "{", "}", "|", "\"", "$", "9999999999999999999", "1e400s", "\\"])
    default: words.swapAt(index, int(0...(words.count - 1)))
    }
    return words.joined(separator: " ")
  }
}

/// Thousands of generated statements through pipesh, on both clocks: none may trap, exit with a
/// status other than 0, 1 or 2, or run past its limit.
@Suite("grammar fuzz")
struct GrammarFuzzTests {
  /// Batches of generated statements, each run as its own `-c` (one error must not hide others).
  static let batches = Array(0..<16)
  static let perBatch = 32

  @Test("virtual clock", arguments: batches)
  func virtualClock(_ batch: Int) throws {
    try run(batch: batch, realClock: false)
  }

  @Test("real clock", arguments: batches)
  func realClock(_ batch: Int) throws {
    try run(batch: batch, realClock: true)
  }

  /// Every fourth statement gets a Ctrl-C at once: it must end it (no signal, no hang) with 130 or
  /// the status it had reached.
  func run(batch: Int, realClock: Bool) throws {
    var generator = StatementGenerator(seed: UInt64(batch) &* 7919 &+ (realClock ? 1 : 0), realClock: realClock)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-fuzz-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for index in 0..<Self.perBatch {
      let statement = index % 5 == 4 ? generator.script(in: directory.path) : generator.statement()
      let interrupted = index % 4 == 3
      let result = try Pipesh.run(
        (realClock ? [] : ["--virtual-time"]) + ["-c", statement], limit: 60, interruptWhen: interrupted ? "" : nil)
      #expect(!result.timedOut, "did not end\(interrupted ? " after Ctrl-C" : ""): \(statement)")
      if interrupted {
        #expect([0, 1, 2, 130].contains(result.status), "status \(result.status) after Ctrl-C: \(statement)")
        continue
      }
      #expect([0, 1, 2].contains(result.status), "status \(result.status): \(statement)\n\(result.stderr)")
      if result.status == 2 { #expect(result.stderr.contains("error: "), "status 2 without an error: \(statement)") }
      if result.status == 1 { #expect(result.stderr.contains("error: "), "status 1 without an error: \(statement)") }
    }
  }

  /// The inputs that once broke pipesh, and every script of the suite, through the fuzz target's
  /// replay mode (the same code libFuzzer drives in `Scripts/fuzz`).
  @Test func fuzzCorpusReplaysWithoutATrap() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let corpus = tests.appendingPathComponent("FuzzCorpus")
    let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).map {
      corpus.appendingPathComponent($0).path
    }
    #expect(files.count >= 8)
    let process = Process()
    let fuzzer: URL = try #require(Pipesh.builtBesideTheTests("PipeFuzz"))
    process.executableURL = fuzzer
    process.arguments =
      files + TranscriptTests.scripts.map { TranscriptTests.directory.appendingPathComponent($0).path }
    let output = ClosingPipe()
    process.standardOutput = output.fileHandleForWriting
    try ClosingPipe.spawning.withLock { try process.run() }
    try output.fileHandleForWriting.close()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(printed.hasSuffix("inputs, no trap\n"))
  }
}
