import Foundation
import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// `pipesh fmt`'s layout: what it writes, that it writes it once (formatting a formatted script
/// changes nothing), and that it never changes what a script says: the tokens, and every space the
/// parser reads, are the same before and after, for every Example and transcript of the repository
/// and for scripts written out of layout on purpose.
@Suite("pipesh fmt")
struct FormatterTests {
  static func format(_ text: String) -> String? {
    try? Formatter.format(SourceFile(name: nil, text: text), grammar: .pipesh).get()
  }

  /// What the parser reads of a script: each token's kind and text, and whether a space stands
  /// before it (the parser asks that of `(`, `[`, `.`, `?`, `!` and a number after `-`).
  static func meaning(_ text: String) -> [String] {
    let tokens = Lexer.tokenize(SourceFile(name: nil, text: text)).tokens
    return tokens.indices.map { index in
      let token = tokens[index]
      let previous = index > 0 ? tokens[index - 1] : nil
      // After an operand (a name, a literal, a closing bracket), as the parser asks.
      let afterOperand =
        previous.map {
          [.identifier, .integer, .float, .duration, .string, .dollar].contains($0.kind)
            || [")", "]", "}"].contains($0.text)
        } ?? false
      let read =
        (["(", "[", ".", "?", "!"].contains(token.text) && afterOperand)
        || (previous.map { ["-", "+"].contains($0.text) } ?? false)
      return "\(token.kind) \(token.text)" + (read ? (token.spaceBefore ? " spaced" : " touching") : "")
    }
  }

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static var scripts: [URL] {
    ["Examples", "Tests/TranscriptTests/Scripts"].flatMap { folder in
      let directory = repository.appendingPathComponent(folder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      return names.filter { $0.hasSuffix(".pipe") }.sorted().map { directory.appendingPathComponent($0) }
    }
  }

  static let messy = """
    # a comment with blanks after it   
    from 1 2|map{$0*-2}|filter {!($0 > -3)}  # kept
    from 1 2 3 \\
      |take   1 &
    validate {  "a|" ; $0.inputs[0] ; "a|"  }
    let f  =  map { $0 > 1 ? "big":"small" }
    expect from -1 == "[-1|]"  
    draw merge(marble "a|",marble "b|")|collect   until:5 tick:  1s
    from 1;from 2 ;  range 1 (2 + 3)|map {( $0,$0 )}|map { [ $0.0 ] }
    from -(1) 2|print; validate { "ab|"; $0.inputs[0]//kept
    "ab|" }


    """

  @Test func aScriptOutOfLayoutIsWrittenInTheDocsLayout() throws {
    let formatted = try #require(Self.format(Self.messy))
    #expect(
      formatted == """
        # a comment with blanks after it
        from 1 2 | map { $0 * -2 } | filter { !($0 > -3) }  # kept
        from 1 2 3 \\
          | take 1 &
        validate {  "a|" ; $0.inputs[0] ; "a|"  }
        let f = map { $0 > 1 ? "big" : "small" }
        expect from -1 == "[-1|]"
        draw merge(marble "a|", marble "b|") | collect until: 5 tick: 1s
        from 1; from 2; range 1 (2 + 3) | map { ($0, $0) } | map { [$0.0] }
        from -(1) 2 | print; validate { "ab|"; $0.inputs[0]//kept
        "ab|" }

        """)
  }

  @Test func formattingTwiceChangesNothingAndTheTokensStay() throws {
    var formattedFiles = 0
    for file in Self.scripts + [URL(fileURLWithPath: "messy.pipe")] {
      let text = file.lastPathComponent == "messy.pipe" ? Self.messy : try String(contentsOf: file, encoding: .utf8)
      let source = SourceFile(name: file.lastPathComponent, text: text)
      let errors = Parser.parse(source, grammar: .pipesh).diagnostics.filter { $0.severity == .error }
      switch Formatter.format(source, grammar: .pipesh) {
      case .failure(let refusal):
        // Refused exactly when the parser finds an error, with those errors.
        #expect(!errors.isEmpty && refusal.diagnostics == errors, "\(file.lastPathComponent)")
      case .success(let formatted):
        formattedFiles += 1
        #expect(errors.isEmpty, "\(file.lastPathComponent)")
        #expect(Self.format(formatted) == formatted, "formatting \(file.lastPathComponent) twice")
        #expect(Self.meaning(formatted) == Self.meaning(text), "the tokens of \(file.lastPathComponent)")
      }
    }
    #expect(formattedFiles > 100)
  }

  @Test func theExamplesAreInTheLayout() throws {
    for file in Self.scripts where file.path.contains("/Examples/") {
      let text = try String(contentsOf: file, encoding: .utf8)
      #expect(Self.format(text) == text, "\(file.lastPathComponent) is not in pipesh fmt's layout")
    }
  }

  /// The docs' pipelines too: each line of a code block (not Swift, Lua or shell) that pipesh
  /// checks, the prompt taken off a session's line, is in the layout; so is each `-c '…'` text.
  @Test func theDocsPipelinesAreInTheLayout() throws {
    let docs = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("Docs").path)
    let pages = ["README.md", "CONTRIBUTING.md"] + docs.filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
    var checked = 0
    for page in pages {
      let text = try String(contentsOf: Self.repository.appendingPathComponent(page), encoding: .utf8)
      var language: String?
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("```") {
          language = language == nil ? String(trimmed.dropFirst(3)) : nil
          continue
        }
        guard let language, !["swift", "lua", "bash", "sh", "json"].contains(language) else { continue }
        var statements: [String] = []
        if let prompt = trimmed.range(of: "]> "), trimmed.hasPrefix("pipesh[") {
          statements.append(String(trimmed[prompt.upperBound...]))
        } else if let start = trimmed.range(of: " -c '"), let end = trimmed[start.upperBound...].firstIndex(of: "'") {
          statements.append(String(trimmed[start.upperBound..<end]))
        } else if !trimmed.hasPrefix("$") {
          statements.append(trimmed)
        }
        for statement in statements where !statement.isEmpty {
          let source = SourceFile(name: nil, text: statement + "\n")
          let (_, _, diagnostics) = Checker.check(Parser.parse(source, grammar: .pipesh), in: Environment.pipesh)
          guard diagnostics.isEmpty else { continue }
          checked += 1
          #expect(Self.format(statement + "\n") == statement + "\n", "\(page):\(number + 1) is not in the layout")
        }
      }
    }
    #expect(checked > 50)
  }

  @Test func aScriptWithASyntaxErrorIsRefusedWithItsErrors() throws {
    let source = SourceFile(name: "broken.pipe", text: "from 1 2 | mapp { $0 } | take (\n")
    guard case .failure(let refusal) = Formatter.format(source, grammar: .pipesh) else {
      Issue.record("a script that does not parse was formatted")
      return
    }
    #expect(!refusal.diagnostics.isEmpty)
  }
}
