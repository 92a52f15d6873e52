import Testing

@testable import PipeSyntax

@Suite("lexer")
struct LexerTests {
  static let cases: [(String, [String])] = [
    ("timer 1.5 | take 20", ["identifier timer", "float 1.5", "punctuation |", "identifier take", "integer 20"]),
    ("250ms 1.5s 2m 10us", ["duration 250ms", "duration 1.5s", "duration 2m", "duration 10us"]),
    ("1_000 -7 1e3", ["integer 1_000", "punctuation -", "integer 7", "float 1e3"]),
    (
      "map { $0 * 2 }", ["identifier map", "punctuation {", "dollar $0", "punctuation *", "integer 2", "punctuation }"]
    ),
    (
      "a <= b && c != d || !e",
      [
        "identifier a", "punctuation <=", "identifier b", "punctuation &&", "identifier c", "punctuation !=",
        "identifier d", "punctuation ||", "punctuation !", "identifier e",
      ]
    ),
    ("from \"a\\\"b\" # comment", ["identifier from", "string a\\\"b"]),
    ("from 1\nfrom 2", ["identifier from", "integer 1", "newline \n", "identifier from", "integer 2"]),
    ("from 1 |\n take 2", ["identifier from", "integer 1", "punctuation |", "identifier take", "integer 2"]),
    ("map {\n $0 }", ["identifier map", "punctuation {", "dollar $0", "punctuation }"]),
  ]

  @Test("tokens", arguments: cases)
  func tokens(_ input: String, _ expected: [String]) {
    let (tokens, diagnostics) = Lexer.tokenize(SourceFile(name: nil, text: input))
    let described = tokens.dropLast().map { "\($0.kind) \($0.text)" }
    #expect(described == expected)
    #expect(diagnostics.isEmpty)
  }

  static let errors: [(String, DiagnosticID, Int)] = [
    ("from \"abc", .unterminatedString, 5),
    ("from 1 @ 2", .unexpectedCharacter, 7),
    ("timer 5parsecs", .unknownUnit, 7),
    ("map { $ }", .invalidDollar, 6),
  ]

  @Test("errors", arguments: errors)
  func lexicalErrors(_ input: String, _ id: DiagnosticID, _ offset: Int) {
    let (_, diagnostics) = Lexer.tokenize(SourceFile(name: nil, text: input))
    #expect(diagnostics.map(\.id) == [id])
    #expect(diagnostics.first?.range.start == offset)
  }

  @Test("durations", arguments: [("250ms", 0.25), ("1.5s", 1.5), ("2m", 120.0), ("10us", 0.00001), ("1h", 3600.0)])
  func durations(_ text: String, _ seconds: Double) {
    #expect(Parser.durationValue(text) == .fromSeconds(seconds))
  }

  @Test(
    "continuation",
    arguments: [
      ("timer 1 |", true), ("merge(timer 1,", true), ("map { $0", true), ("from [1, 2", true), ("timer 1", false),
      ("from \"|\"", false), ("from 1 # |", false),
    ])
  func continuation(_ text: String, _ continues: Bool) {
    #expect(Lexer.needsContinuation(text) == continues)
  }

  @Test(
    "suggestions",
    arguments: [
      ("thottle", "throttle"), ("mpa", "map"), ("debounse", "debounce"), ("cout", "count"), ("zzzzzz", nil),
    ] as [(String, String?)])
  func suggestions(_ typo: String, _ expected: String?) {
    let names = ["throttle", "map", "debounce", "count", "merge", "take"]
    #expect(NameSuggester.suggestion(for: typo, in: names) == expected)
  }
}
