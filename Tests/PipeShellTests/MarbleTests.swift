import PipeSema
import PipeShell
import Testing

/// Marble tests on the virtual clock: diagram in, diagram out. Where swift-async-algorithms
/// 1.1.4 tests an operator with validation diagrams, these are its diagrams, unchanged (spaces are
/// ignored in both notations); `map { $0.joined() }` stands for their `concatCharacters`.
@Suite("marble diagrams")
struct MarbleTests {
  /// Runs `PIPELINE | diagram` on the virtual clock and returns the line it draws.
  static func draw(_ pipeline: String) async -> String {
    await Shell.runExample(pipeline + " | diagram").first ?? ""
  }

  static func strip(_ diagram: String) -> String { diagram.filter { $0 != " " } }

  /// From Tests/AsyncAlgorithmsTests/TestThrottle.swift.
  static let throttle: [(String, String, String)] = [
    ("abcdefghijk|", "throttle 1", "abcdefghijk|"),
    ("abcdefghijk|", "throttle 1 latest: false", "abcdefghijk|"),
    ("abcdefghijk|", "throttle 2", "a-c-e-g-i-k|"),
    ("abcdefghijk|", "throttle 2 latest: false", "a-b-d-f-h-j|"),
    ("abcdefghijk|", "throttle 3", "a--d--g--j--[k|]"),
    ("abcdefghijk|", "throttle 3 latest: false", "a--b--e--h--[k|]"),
    ("abcdef^hijk|", "throttle 2", "a-c-e-^"),
    ("abcdef^hijk|", "throttle 2 latest: false", "a-b-d-^"),
    ("-a-b-c-d-e-f-g-h-i-j-k-|", "throttle 1", "-a-b-c-d-e-f-g-h-i-j-k-|"),
    ("-a-b-c-d-e-f-g-h-i-j-k-|", "throttle 2", "-a-b-c-d-e-f-g-h-i-j-k-|"),
    ("--a--b--c--d--e--f--g|", "throttle 2", "--a--b--c--d--e--f--g|"),
    ("-a-b-c-d-e-f-g-h-i-j-k-|", "throttle 3", "-a---c---e---g---i---k-|"),
    ("abcdefghijkl|", "throttle 3 latest: false", "a--b--e--h--[k|]"),
    ("abcdefghijkl|", "throttle 3 latest: true", "a--d--g--j--[l|]"),
  ]

  /// From Tests/AsyncAlgorithmsTests/TestDebounce.swift.
  static let debounce: [(String, String, String)] = [
    ("abcd----e---f-g----|", "debounce 3", "------d----e-----g-|"),
    ("abcd----e---f-g-|", "debounce 3", "------d----e----[g|]"),
    ("a|", "debounce 3", "-[a|]"),
    ("a^", "debounce 3", "-^"),
    ("----|", "debounce 3", "----|"),
  ]

  /// From Tests/AsyncAlgorithmsTests/TestChunk.swift: the ones whose signal is a timer or a count.
  static let chunks: [(String, String, String)] = [
    ("ABCDE|", "chunks 1 | map { $0.joined() }", "ABCDE|"),
    ("ABC-    DEF-    GHI-     |", "chunked 4 | map { $0.joined() }", "---'ABC'---'DEF'---'GHI'|"),
    (
      "AB------    A------- ABCDEFG-         |", "chunked 8 | map { $0.joined() }",
      "-------'AB' -------A -------'ABCDEFG'|"
    ),
    ("-- 1- --|", "chunked 2 | map { $0.joined() }", "-- -1 --|"),
    ("AB^", "chunked 5 | map { $0.joined() }", "--^"),
    // sumCharacters of ones is the chunk's count.
    ("111-111|", "chunked 4 | map { $0.count }", "---3---[3|]"),
    (
      "AB------    A------- ABCDEFG-         |", "chunks 42 every: 8 | map { $0.joined() }",
      "-------'AB' -------A -------'ABCDEFG'|"
    ),
    ("AB   --A-B   -|", "chunks 2 every: 8 | map { $0.joined() }", "-'AB'----'AB'-|"),
    ("ABCDE      --- ABCDE      |", "chunks 5 every: 8 | map { $0.joined() }", "----'ABCDE'--- ----'ABCDE'|"),
    ("AB------    ABCDE      |", "chunks 5 every: 8 | map { $0.joined() }", "-------'AB' ----'ABCDE'|"),
    ("ABC^", "chunks 5 every: 8 | map { $0.joined() }", "---^"),
    ("ABC    DEF    |", "chunks 3 | map { $0.joined() }", "--'ABC'--'DEF'|"),
    ("A--B-C    --DE-F    |", "chunks 3 | map { $0.joined() }", "-----'ABC'-----'DEF'|"),
    ("11111|", "chunks 3 | map { $0.count }", "--3--[2|]"),
    ("AB^", "chunks 3 | map { $0.joined() }", "--^"),
  ]

  @Test("throttle", arguments: throttle)
  func throttleDiagrams(_ input: String, _ stage: String, _ expected: String) async {
    #expect(Self.strip(await Self.draw("marble \"\(input)\" | \(stage)")) == Self.strip(expected))
  }

  @Test("debounce", arguments: debounce)
  func debounceDiagrams(_ input: String, _ stage: String, _ expected: String) async {
    #expect(Self.strip(await Self.draw("marble \"\(input)\" | \(stage)")) == Self.strip(expected))
  }

  @Test("chunks", arguments: chunks)
  func chunkDiagrams(_ input: String, _ stage: String, _ expected: String) async {
    #expect(Self.strip(await Self.draw("marble \"\(input)\" | \(stage)")) == Self.strip(expected))
  }

  /// From Tests/AsyncAlgorithmsTests/TestMerge.swift, and pipesh's own diagrams for the combinators
  /// and operators that swift-async-algorithms 1.1.4 tests without diagrams.
  static let combinators: [(String, String)] = [
    ("merge(marble \"a-c-e-g-|\", marble \"-b-d-f-h\")", "abcdefgh|"),
    ("merge(marble \"a---e---|\", marble \"-b-d-f-h|\", marble \"--c---g-|\")", "abcdefgh|"),
    ("zip(marble \"a-b-c|\", marble \"-x--y-z|\") | map { $0.0 + $0.1 }", "-'ax'--'by'-['cz'|]"),
    ("zip(marble \"ab|\", marble \"xyz|\") | map { $0.0 + $0.1 }", "'ax' 'by'|"),
    ("combineLatest(marble \"a--b|\", marble \"-x-y|\") | map { $0.0 + $0.1 }", "-'ax'-['bx' 'by']|"),
    // A marble's steps count from the job's start, so the second input's steps are already due.
    ("chain(marble \"ab|\", marble \"cd|\")", "ab[cd|]"),
    ("marble \"abc|\" | reductions \"\" { $0 + $1 }", "a'ab' 'abc'|"),
    ("marble \"aab-bc|\" | removeDuplicates", "a-b--c|"),
    ("marble \"a-b-c|\" | interspersed \",\"", "a-[,b]-[,c]|"),
    ("marble \"abc|\" | adjacentPairs | map { $0.0 + $0.1 }", "-'ab' 'bc'|"),
    ("marble \"a-b-c-|\" | buffer 2", "a-b-c-|"),
    ("timer 2 | take 3", "-0-1-[2|]"),
    ("marble \"a-b|\" | delay 2", "--a-[b|]"),
    ("marble \"a-------b|\" | timeout 3", "a--^"),
    ("marble \"abc|\" | enumerated | map { $0.0 }", "012|"),
  ]

  @Test("combinators and other operators", arguments: combinators)
  func combinatorDiagrams(_ pipeline: String, _ expected: String) async {
    #expect(await Self.draw(pipeline) == expected)
  }

  @Test func drawPrintsOneLabelledLinePerStage() async {
    let lines = await Shell.runExample("draw marble \"abcdefghijk|\" | throttle 2")
    #expect(
      lines == [
        "                        1s  5s   10s",
        "marble \"abcdefghijk|\"   abcdefghijk|",
        "throttle 2              a-c-e-g-i-k|",
      ])
  }

  /// Two quoted values in a row are written with a space between them (the notation ignores it),
  /// so they read back as two values, not one with a quote inside.
  @Test func adjacentQuotedValuesReadBackAsTwo() async throws {
    let line = await Self.draw("marble \"ab|\" | map { $0 + $0 }")
    #expect(line == "'aa' 'bb'|")
    let diagram = try MarbleDiagram.parse(line).get()
    #expect(diagram.events.flatMap(\.events) == [.value("aa"), .value("bb"), .finish])
  }

  /// A diagram's values read back as the same values (one without a quote: AA's notation has no
  /// way to write a quote inside a value).
  @Test(arguments: ["a b", "-", "|", "[x]", "\\", "x", "日本", "e\u{301}", "👍🏽"])
  func notationReadsBackAsTheSameValue(_ value: String) throws {
    let written = MarbleDiagram.Event.value(value).notation + "-" + MarbleDiagram.Event.value("z").notation + "|"
    let diagram = try MarbleDiagram.parse(written).get()
    #expect(diagram.events.flatMap(\.events) == [.value(value), .value("z"), .finish], "\(written)")
  }

  /// A quote ends a quoted value, as AA's `Event.parse` reads it: `'foo''bar'` is two values, at
  /// two steps, or at one inside `[…]` (what `pipesh serve`'s page writes); a value with a quote
  /// in it is written doubled, to be seen, and reads back as AA reads that.
  @Test func aQuoteEndsAValueAsInAA() throws {
    let steps = try MarbleDiagram.parse("'foo''bar'-['foo''bar']|").get().steps
    #expect(steps.map(\.events) == [[.value("foo")], [.value("bar")], [], [.value("foo"), .value("bar")], [.finish]])
    #expect(MarbleDiagram.Event.value("it's").notation == "'it''s'")
    let read = try MarbleDiagram.parse(MarbleDiagram.Event.value("it's").notation).get()
    #expect(read.steps.map(\.events) == [[.value("it")], [.value("s")]])
  }

  /// Values pipesh prints in a diagram line are escaped: one line per stage, always, and a tab
  /// too, so that a lane's later columns stay under the ruler.
  @Test func controlCharactersStayOnTheLine() async {
    let line = await Self.draw("from \"two\\nlines\" \"tab\\there\"")
    #expect(line == "['two\\u{A}lines' 'tab\\u{9}here'|]")
  }
}
