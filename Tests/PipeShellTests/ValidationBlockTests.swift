import PipeSema
import PipeShell
import Testing

@testable import PipeSyntax

/// `validate { … }`: the parser takes the braces' text as written, with its range; the block's
/// Swift is read by `ValidationBlock`, every problem at its place.
@Suite("validation blocks")
struct ValidationBlockTests {
  func parse(_ text: String) -> Script { Parser.parse(SourceFile(name: nil, text: text), grammar: .pipesh) }

  /// The verbatim argument of the first statement, and the script.
  func block(_ text: String) -> (text: String, range: SourceRange, script: Script)? {
    let script = parse(text)
    guard case .command(let name, let arguments, nil)? = script.statements.first?.kind, name.name == "validate",
      let first = arguments.first, case .verbatim(let inner) = first.value.kind
    else { return nil }
    return (inner, first.value.range, script)
  }

  @Test func theBracesAreTakenAsWrittenAndTheNextStatementFollows() throws {
    // `'` and `#` would be a lexer error and a comment in pipesh; inside the block they are Swift's.
    let text = "validate {\n  \"'a''b'|\"\n  $0.inputs[0] // it's #1\n  \"'a''b'|\"\n}\njobs"
    let (inner, range, script) = try #require(block(text))
    #expect(script.diagnostics.isEmpty)
    #expect(inner == "\n  \"'a''b'|\"\n  $0.inputs[0] // it's #1\n  \"'a''b'|\"\n")
    #expect(SourceFile(name: nil, text: text).text(of: range).hasPrefix("{") && range.end == text.count - 5)
    guard case .command(let next, _, _)? = script.statements.last?.kind else {
      Issue.record("the statement after the block is lost: \(script.statements)")
      return
    }
    #expect(script.statements.count == 2 && next.name == "jobs")
  }

  @Test func anUnclosedBlockIsReportedAtItsBrace() {
    let script = parse("validate { \"a|\"\n  $0.inputs[0]\n  \"a|\"\n")
    #expect(script.diagnostics.map(\.message) == ["expected '}' to match this '{'"])
    #expect(script.diagnostics.first?.range == SourceRange(9, 10))
  }

  @Test func theBlockReadsInputsOperationAndOutputWithTheirPlaces() throws {
    let text = "validate { diagram in \"ab|\"; \"-c|\"; merge(diagram.inputs[0], diagram.inputs[1]); \"a[bc]|\" }"
    let source = SourceFile(name: nil, text: text)
    let (_, range, _) = try #require(block(text))
    let parsed = try ValidationBlock.parse(source, block: range).get()
    #expect(parsed.parameter?.name == "diagram")
    #expect(parsed.inputs.map(\.text) == ["ab|", "-c|"])
    #expect(parsed.output.text == "a[bc]|")
    #expect(source.text(of: parsed.output.range) == "\"a[bc]|\"")
    guard case .call(let callee, let arguments) = parsed.operation.kind, case .name("merge") = callee.kind else {
      Issue.record("not a call of merge: \(parsed.operation.kind)")
      return
    }
    #expect(arguments.count == 2)
  }

  @Test(
    "each malformed block says what, where",
    arguments: [
      ("validate { \"a|\"; $0.inputs[0] }", "validate: missing the output diagram after the operation", " }"),
      ("validate { \"a|\"; \"a|\" }", "validate: expected the operation after the input diagrams", " }"),
      (
        "validate { \"a|\"; $0.inputs[0]; \"a|\"; \"b|\" }", "validate: nothing may follow the output diagram", "\"b|\""
      ),
      ("validate { \"a|\"; $0.inputs[0].map(; \"a|\" }", "validate: expected an expression, found ';'", ";"),
    ])
  func malformed(_ text: String, _ message: String, _ at: String) throws {
    let source = SourceFile(name: nil, text: text)
    let (_, range, _) = try #require(block(text))
    guard case .failure(let diagnostic) = ValidationBlock.parse(source, block: range) else {
      Issue.record("read without a problem: \(text)")
      return
    }
    #expect(diagnostic.message.hasPrefix(message))
    // Where the caret stands: the text from the diagnostic's start (a missing part: just past the last).
    let from = source.text(of: SourceRange(diagnostic.range.start, text.utf8.count))
    #expect(from.hasPrefix(at), "at \(from)")
  }
}
