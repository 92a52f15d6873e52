import PipeRuntime
import PipeSema
import PipeShell
import Testing

/// `help NAME` for every operator: usage, summary, and for examples that can run, their real output.
@Suite("help")
struct HelpTests {
  @Test("every operator", arguments: Operators.signatures.all.map(\.name))
  func helpForEveryOperator(_ name: String) async throws {
    let signature = try #require(Operators.signatures[name])
    let lines = await Shell.helpText(signature)
    #expect(lines.first == signature.usage)
    #expect(lines.contains("  > \(signature.example)"))
    let exampleIndex = try #require(lines.firstIndex(of: "  > \(signature.example)"))
    let output = lines[(exampleIndex + 1)...]
    if signature.exampleRuns {
      #expect(!output.isEmpty || name == "drain", "the example of \(name) printed nothing")
      let failsOnPurpose = ["fail", "never", "timeout"].contains(name)
      #expect(failsOnPurpose || !output.contains { $0.contains("error:") })
    }
  }
}
