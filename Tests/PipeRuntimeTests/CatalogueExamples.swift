import PipeSyntax
import Testing

@testable import PipeSema

/// The catalogue's one-line examples, which the tests that walk the catalogue run.
enum CatalogueExamples {
  static let oneLine = OperatorKind.allCases.filter { kind in
    kind.signature.exampleRuns && !kind.signature.example.contains("\n")
  }

  /// `kind`'s example, checked; nil (an issue recorded) when it does not check.
  static func pipeline(_ kind: OperatorKind) throws -> CheckedPipeline? {
    let source = SourceFile(name: nil, text: kind.signature.example)
    var checker = Checker(environment: Environment(), source: source)
    let statement = try #require(Parser.parse(source, grammar: .pipesh).statements.first)
    guard case .run(let pipeline, _) = checker.check(statement) else {
      Issue.record("\(kind.name)'s example did not check: \(checker.diagnostics.map(\.message))")
      return nil
    }
    return pipeline
  }
}
