import PipeSema
import PipeShell
import Testing

@testable import PipeSyntax

@Suite("parser")
struct ParserTests {
  func parse(_ text: String) -> Script { Parser.parse(SourceFile(name: nil, text: text), grammar: .pipesh) }

  @Test func pipelineStagesAndArguments() throws {
    let script = parse("timer 1.5 | take 20 | throttle 2 latest: false | print")
    #expect(script.diagnostics.isEmpty)
    guard case .run(let pipeline, let background) = try #require(script.statements.first).kind else {
      Issue.record("not a pipeline")
      return
    }
    #expect(!background)
    #expect(pipeline.stages.compactMap(\.name?.name) == ["timer", "take", "throttle", "print"])
    guard case .call(_, let arguments) = pipeline.stages[2].kind else {
      Issue.record("throttle is not a call: \(pipeline.stages[2].kind)")
      return
    }
    #expect(arguments.map { $0.label?.name } == [nil, "latest"])
  }

  @Test func statementsAndBackground() {
    let script = parse("let t = timer 1 | share; t | take 3 &\njobs\ncancel all")
    #expect(script.diagnostics.isEmpty)
    #expect(script.statements.count == 4)
    if case .run(_, let background) = script.statements[1].kind { #expect(background) } else { Issue.record("not run") }
    if case .command(let name, _, _) = script.statements[3].kind {
      #expect(name.name == "cancel")
    } else {
      Issue.record("not a command: \(script.statements[3].kind)")
    }
  }

  @Test func combinatorsNest() {
    let script = parse("merge(timer 1 | take 2, zip(from 1, from 2) | map { $0.0 })")
    #expect(script.diagnostics.isEmpty)
    guard case .run(let pipeline, _) = script.statements.first?.kind,
      case .combinator(let name, let inputs) = pipeline.stages[0].kind
    else {
      Issue.record("no combinator")
      return
    }
    #expect(name.name == "merge")
    #expect(inputs.count == 2)
    #expect(inputs[1].stages.count == 2)
  }

  @Test func closureExpressionsFollowSwiftPrecedence() {
    let script = parse("from 1 | map { $0 + 2 * 3 > 4 && !false ? \"a\\($0)\" : \"b\" }")
    #expect(script.diagnostics.isEmpty)
  }

  /// The parser recovers and reports every error of a script at once.
  @Test func recoversAndReportsAllErrors() {
    let script = parse(
      """
      from 1 | | take 2
      from 1 | map { $0 + }
      timer 1 ) | print
      from 1 | take 2 = 3
      """)
    let found = script.diagnostics.map {
      "\(SourceFile(name: nil, text: script.source.text).location(of: $0.range.start).line):\($0.id)"
    }
    #expect(found == ["1:expected", "2:expected", "3:unexpected-token", "4:unexpected-token"])
    #expect(script.statements.count >= 3)
  }

  @Test func interpolationOutsideClosuresIsAnError() {
    let script = parse("from \"\\(1)\"")
    #expect(script.diagnostics.map(\.id) == [.badInterpolation])
  }

  @Test func formatterPointsAtTheColumn() {
    let source = SourceFile(name: "demo.pipe", text: "from 1\ntimer 1.5 | take 20 | thottle 2 | print")
    let diagnostic = Diagnostic(
      id: .unknownOperator, message: "unknown operator 'thottle'", range: SourceRange(29, 36),
      notes: ["did you mean 'throttle'?"])
    #expect(
      DiagnosticFormatter.render(diagnostic, in: source) == """
        demo.pipe:2:23: error: unknown operator 'thottle'
        timer 1.5 | take 20 | thottle 2 | print
                              ^~~~~~~
        note: did you mean 'throttle'?

        """)
  }

  /// How a diagnostic looks is decided outside the syntax layer: the formatter hands the decorator
  /// the severity, the caret and `note:`, and nothing else.
  @Test func aDecoratorSetsApartTheSeverityTheCaretAndNotes() {
    struct Brackets: DiagnosticDecorator {
      func decorate(severity text: String, _ severity: Diagnostic.Severity) -> String { "<\(severity)|\(text)>" }
      func decorate(caret text: String) -> String { "<\(text)>" }
      func decorate(noteLabel text: String) -> String { "<\(text)>" }
    }
    let source = SourceFile(name: nil, text: "from 1 | mapp")
    let diagnostic = Diagnostic(
      id: .unknownOperator, severity: .warning, message: "unknown operator 'mapp'", range: SourceRange(9, 13),
      notes: ["did you mean 'map'?"])
    #expect(
      DiagnosticFormatter.render(diagnostic, in: source, decorator: Brackets()) == """
        <warning|warning:> unknown operator 'mapp'
        from 1 | mapp
                 <^~~~>
        <note:> did you mean 'map'?

        """)
  }
}
