import PipeRuntime
import PipeSema
import PipeShell
import Testing

/// `help NAME` for every operator: usage, summary, and for examples that can run, their real output.
@Suite("help")
struct HelpTests {
  @Test("every operator", arguments: OperatorKind.signatures.all.map(\.name))
  func helpForEveryOperator(_ name: String) async throws {
    let signature = try #require(OperatorKind.signatures[name])
    let lines = await Shell.helpText(signature)
    #expect(lines.first == signature.usage)
    let exampleLines = signature.example.split(separator: "\n").map { "  > " + $0 }
    let exampleIndex = try #require(lines.firstIndex(of: "example:"))
    #expect(Array(lines[(exampleIndex + 1)...].prefix(exampleLines.count)) == exampleLines)
    let output = lines[(exampleIndex + 1 + exampleLines.count)...]
    if signature.exampleRuns {
      #expect(!output.isEmpty || name == "drain", "the example of \(name) printed nothing")
      let failsOnPurpose = ["fail", "never", "timeout", "mapError"].contains(name)
      #expect(failsOnPurpose || !output.contains { $0.contains("error:") })
    }
  }

  /// Every command and topic has help with an example, run, that prints what the command does.
  @Test("every command and topic", arguments: Commands.table.names + Commands.table.topics)
  func helpForEveryCommandAndTopic(_ name: String) async throws {
    let lines = await Shell.runExample("help \(name)")
    // expect's example shows what a failing expectation prints, on purpose.
    let failsOnPurpose = name == "expect" ? "error: expectation failed" : nil
    #expect(
      !lines.contains { $0.hasPrefix("error:") && !(failsOnPurpose.map($0.hasPrefix) ?? false) }, "\(lines)")
    #expect(lines.count >= 2)
    let quiet = ["let", "load", "history"]
    if !quiet.contains(name) {
      let example = try #require(lines.firstIndex(of: "example:"), "no example for \(name)")
      let shown = lines[(example + 1)...].filter { !$0.hasPrefix("  > ") }
      #expect(!shown.isEmpty, "the example of \(name) printed nothing")
    }
  }

  /// `help combine` lists every word of Combine's that is no alias, with what pipesh has instead.
  @Test func helpCombineListsEveryWordThatIsNoAlias() async {
    let lines = await Shell.runExample("help combine")
    let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
    for foreign in ForeignName.all where !foreign.isAlias {
      #expect(text.contains(foreign.advice.split(separator: " ").prefix(4).joined(separator: " ")), "\(foreign.name)")
    }
    #expect(text.contains("receive(on:) → no equivalent"))
    #expect(text.contains("prefix(_:) → take"))
  }
}
