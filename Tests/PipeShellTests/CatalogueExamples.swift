import PipeSyntax
import Testing
import VirtualTime

@testable import PipeRuntime
@testable import PipeSema
@testable import PipeShell

/// The catalogue's one-line examples, which the tests that walk the catalogue run.
enum CatalogueExamples {
  static let oneLine = OperatorKind.allCases.filter { kind in
    kind.signature.exampleRuns && !kind.signature.example.contains("\n")
  }

  /// `kind`'s example, checked; nil (an issue recorded) when it does not check.
  static func pipeline(_ kind: OperatorKind) throws -> CheckedPipeline? {
    let source = SourceFile(name: nil, text: kind.signature.example)
    var checker = Checker(environment: Environment.pipesh, source: source)
    let statement = try #require(Parser.parse(source, grammar: .pipesh).statements.first)
    guard case .run(let pipeline, _) = checker.check(statement) else {
      Issue.record("\(kind.name)'s example did not check: \(checker.diagnostics.map(\.message))")
      return nil
    }
    return pipeline
  }

  /// Starts `pipeline` in the background on a virtual clock of its own, every stage its own node,
  /// its output dropped. Shut the driver down when done.
  static func start(_ pipeline: CheckedPipeline) -> (table: JobTable, driver: VirtualDriver, job: Job) {
    let console = Console()
    console.setLineWriter { _, _ in }
    let table = JobTable(console: console, session: Session())
    let driver = VirtualDriver()
    let job = table.start(pipeline, background: true, clock: .virtual(driver), fusing: false)
    return (table, driver, job)
  }

  /// Lets `driver`'s clock run a quarter of a second.
  static func advance(_ driver: VirtualDriver) async {
    let next = driver.now.advanced(by: .milliseconds(250))
    await driver.run(until: { try? await driver.sleep(until: next) })
  }
}
