import PipeRuntime
import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// Combine's and Swift's words: each points at pipesh words that exist, none hides a pipesh word,
/// and each is understood where a user types it (a stage, `help NAME`).
@Suite("Combine's words")
struct ForeignNameTests {
  @Test(arguments: ForeignName.all.map(\.name))
  func aWordPointsAtPipeshWordsAndIsUnderstood(_ name: String) async throws {
    let foreign = try #require(ForeignName.named(name))
    #expect(
      OperatorKind.signatures[name] == nil && CommandKind.signatures[name] == nil, "'\(name)' is pipesh's own word")
    for word in foreign.pipesh {
      #expect(
        OperatorKind.signatures[word] != nil || CommandKind.signatures[word] != nil, "'\(word)' is no pipesh word")
    }
    // As a stage: the unknown operator says what to write instead.
    let diagnostics = Shell.check(SourceFile(name: nil, text: "from 1 | \(name)"))
    let notes = diagnostics.first?.notes ?? []
    #expect(diagnostics.first?.message == "unknown operator '\(name)'")
    #expect(notes == foreign.notes)
    for word in foreign.pipesh { #expect(notes.joined().contains("'\(word)'")) }
    // And help explains it.
    #expect(Shell.check(SourceFile(name: nil, text: "help \(name)")).isEmpty)
  }

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
