import PipeSyntax
import Testing

@testable import PipeSema
@testable import PipeShell

@Suite("checker")
struct CheckerTests {
  func check(_ text: String) -> (CheckedPipeline?, [Diagnostic]) {
    let source = SourceFile(name: nil, text: text)
    let script = Parser.parse(source, grammar: .pipesh)
    var checker = Checker(environment: Environment.pipesh, source: source)
    guard let statement = script.statements.first else { return (nil, script.diagnostics) }
    let checked = checker.check(statement)
    let diagnostics = script.diagnostics + checker.diagnostics
    if case .command(let command, _) = checked, let pipeline = (command.command as? Commands.Check)?.pipeline {
      return (pipeline, diagnostics)
    }
    return (nil, diagnostics)
  }

  /// The element type after every stage is known before anything runs.
  static let types: [(String, [String])] = [
    ("range 1 5 | map { $0 * 1.5 } | chunks 2", ["Int", "Double", "[Double]"]),
    ("from 1 2.5", ["Double"]),
    ("from \"a\" nil | compacted", ["String?", "String"]),
    ("zip(from 1, from \"a\") | map { $0.1 }", ["(Int, String)", "String"]),
    ("combineLatest(timer 1, timer 2, timer 3)", ["(Int, Int, Int)"]),
    ("from 1 2 | adjacentPairs | map { $0.0 + $0.1 }", ["Int", "(Int, Int)", "Int"]),
    ("from \"1\" | compactMap { int($0) }", ["String", "Int"]),
    ("from 1 | reductions 0 { $0 + $1 * 0.5 }", ["Int", "Double"]),
    ("from 1 | enumerated", ["Int", "(Int, Int)"]),
    ("from [\"a\"] | map { $0.joined(separator: \",\") }", ["[String]", "String"]),
    ("from 3 1 | max", ["Int", "Int?"]),
    ("chain(from 1, from 2.5) | sum", ["Double", "Double"]),
    ("merge(empty, from \"x\")", ["String"]),
    ("from 1 | map { $0 > 0 ? $0 : nil }", ["Int", "Int?"]),
  ]

  @Test("types", arguments: types)
  func elementTypes(_ pipeline: String, _ expected: [String]) {
    let (checked, diagnostics) = check("check " + pipeline)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    #expect(checked?.stages.map(\.outputType.description) == expected)
  }

  /// Mismatches are errors at the right column (1-based, counted in the pipeline after `check `).
  static let errors: [(String, DiagnosticID, Int)] = [
    ("from \"a\" | sum", .badArgument, 12),
    ("from 1 | map { $0.1 }", .typeMismatch, 16),
    ("from 1 | filter { $0 + 1 }", .typeMismatch, 19),
    ("from 1 | take \"x\"", .badArgument, 15),
    ("zip(from 1)", .badArgument, 1),
    ("from 1 | map { $0 + \"a\" }", .typeMismatch, 16),
    ("from 1 | thottle 2", .unknownOperator, 10),
    ("from 1 | timer 1", .misplacedStage, 10),
    ("take 3", .misplacedStage, 1),
    ("from 1 | count | map { $0 }", .misplacedStage, 10),
    ("from 1 | map { $1 }", .badClosure, 16),
    ("from 1 | map { foo($0) }", .unknownFunction, 16),
    ("from 1 | throttle 2 latst: true", .badArgument, 21),
    ("from 1 | compacted", .badArgument, 10),
    ("channel c | print", .channelTypeUnknown, 9),
    ("marble \"a[b\"", .badDiagram, 10),
    ("range 1 5 by: 0", .badArgument, 11),
  ]

  @Test("errors", arguments: errors)
  func errorsAtTheRightColumn(_ pipeline: String, _ id: DiagnosticID, _ column: Int) {
    let (_, diagnostics) = check("check " + pipeline)
    #expect(diagnostics.first?.id == id, "\(diagnostics.map(\.message))")
    #expect(diagnostics.first.map { $0.range.start - 5 } == column)
  }

  @Test func fragmentsExpandColdAndShareIsHot() throws {
    let source = SourceFile(name: nil, text: "let t = timer 1 | share\nlet m = map { $0 * 2 }\nt | m | take 2")
    let (statements, _, diagnostics) = Checker.check(
      Parser.parse(source, grammar: .pipesh), in: Environment.pipesh)
    #expect(diagnostics.isEmpty)
    guard case .run(let pipeline, _) = try #require(statements.last) else {
      Issue.record("the last statement does not run a pipeline")
      return
    }
    #expect(pipeline.stages.map(\.name) == ["(shared)", "map", "take", "print"])
  }

  @Test func channelTypesComeFromLaterSends() {
    let source = SourceFile(name: nil, text: "channel c | map { $0 + 1 } &\nsend c 1 2")
    let (_, environment, diagnostics) = Checker.check(
      Parser.parse(source, grammar: .pipesh), in: Environment.pipesh)
    #expect(diagnostics.isEmpty)
    #expect(environment.channels["c"] == .int)
  }

  @Test func marbleDiagramsParse() throws {
    let diagram = try MarbleDiagram.parse("ab-'xy'[cd]|").get()
    #expect(diagram.events.map(\.step) == [1, 2, 4, 5, 6])
    #expect(diagram.events[2].events == [.value("xy")])
    #expect(diagram.events[3].events == [.value("c"), .value("d")])
    #expect(try MarbleDiagram.parse("ab").get().events.last?.events == [.value("b"), .finish])
  }
}
