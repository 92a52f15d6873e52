import PipeExport
import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// The export in process, from text to Swift, without starting pipesh: what `--emit-swift` and the
/// `swift` command print. (That the programs compile and print what pipesh prints is the
/// differential test in TranscriptTests, which needs the Swift compiler as a process.)
@Suite("the Swift export, in process")
struct SwiftExportTests {
  /// The script's checked statements, as `pipesh --emit-swift` checks them.
  static func checked(_ text: String) -> ([CheckedStatement], Environment, SourceFile) {
    let source = SourceFile(name: "script.pipe", text: text)
    let environment = Environment.pipesh
    let (statements, checkedEnvironment, diagnostics) = Checker.check(
      Parser.parse(source, grammar: environment.grammar), in: environment)
    #expect(diagnostics.isEmpty, "\(text) does not check: \(diagnostics.map(\.message))")
    return (statements, checkedEnvironment, source)
  }

  static func program(_ text: String, plain: Bool = false) throws -> SwiftExport.Output {
    let (statements, environment, source) = checked(text)
    return try SwiftExport.program(statements, environment: environment, source: source, plain: plain).get()
  }

  @Test func aPipelineBecomesAsyncAlgorithmsOwnOperators() throws {
    let output = try Self.program("timer 1 | take 3 | debounce 0.5 | print\n")
    #expect(output.warnings.isEmpty)
    #expect(output.text.contains("import AsyncAlgorithms"))
    #expect(output.text.contains(".debounce(for: "), "\(output.text)")
    #expect(output.text.contains("exit(await runScript())"))
  }

  @Test func pipeshsOwnCommandsStayAsCommentsWithAWarning() throws {
    let output = try Self.program("from 1 2 3 | map { $0 * 2 }\ndraw from 1 2 | print\n")
    #expect(output.warnings.map(\.id) == [.exportCommand])
    let (_, _, source) = Self.checked("from 1 2 3 | map { $0 * 2 }\ndraw from 1 2 | print\n")
    #expect(output.warnings.first.map { source.location(of: $0.range.start).line } == 2)
    #expect(output.text.contains("// draw from 1 2 | print: pipesh's own, not in this program"))
  }

  /// Checked arithmetic (an overflow is the job's error, as in pipesh) unless `plain`.
  @Test func thePlainProgramLeavesOutPipeshsChecks() throws {
    let checked = try Self.program("from 1 2 3 | map { $0 * 2 }\n")
    let plain = try Self.program("from 1 2 3 | map { $0 * 2 }\n", plain: true)
    #expect(checked.text.contains("multiplied(by: 2)"))
    #expect(!plain.text.contains("checked"), "\(plain.text)")
    #expect(plain.text.contains("$0 * 2"), "\(plain.text)")
  }

  /// What Swift cannot say is refused at its place, saying what to do instead.
  @Test func aClosureAsChunkedByCannotTakeIsRefusedWhereItStands() {
    let (statements, environment, source) = Self.checked("from 1 2 0 3 | chunked { 6 / $1 > 1 }\n")
    let exported = SwiftExport.program(statements, environment: environment, source: source)
    guard case .failure(let problem) = exported else {
      Issue.record("exported: \(exported)")
      return
    }
    #expect(problem.id == .export)
    let location = source.location(of: problem.range.start)
    #expect(location.line == 1 && location.column == 16)
    #expect(problem.message.contains("compare without such arithmetic"))
  }

  @Test func theSameScriptExportsTheSameBytes() throws {
    let script = "channel c of: Int | print &\nmerge(timer 1 | take 2, from 5 6) | into c\nclose c\nwait\n"
    let first = try Self.program(script)
    for _ in 1...5 { #expect(try Self.program(script).text == first.text) }
  }
}
