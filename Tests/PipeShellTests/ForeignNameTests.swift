import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// Combine's and Swift's words: each points at pipesh words that exist, none hides a pipesh word,
/// and each is understood where a user types it (a stage, `help NAME`).
@Suite("Combine's words")
struct ForeignNameTests {
  func check(_ text: String) -> [Diagnostic] {
    Checker.check(Parser.parse(SourceFile(name: nil, text: text), grammar: .pipesh), in: Environment.pipesh).diagnostics
  }

  @Test(arguments: ForeignName.all.map(\.name))
  func aWordPointsAtPipeshWordsAndIsUnderstood(_ name: String) async throws {
    let foreign = try #require(ForeignName.named(name))
    #expect(
      OperatorKind.signatures[name] == nil && Commands.table[name] == nil, "'\(name)' is pipesh's own word")
    for word in foreign.pipesh {
      #expect(
        OperatorKind.signatures[word] != nil || Commands.table[word] != nil, "'\(word)' is no pipesh word")
    }
    // As a stage: the unknown operator says what to write instead.
    let diagnostics = check("from 1 | \(name)")
    let notes = diagnostics.first?.notes ?? []
    #expect(diagnostics.first?.message == "unknown operator '\(name)'")
    #expect(notes == foreign.notes)
    for word in foreign.pipesh { #expect(notes.joined().contains("'\(word)'")) }
    // And help explains it.
    #expect(check("help \(name)").isEmpty)
  }

  /// The names the seed articles use (issue 48): each maps to what pipesh has, and none is
  /// mistaken for a pipesh word (`help Task` once suggested `tasks`).
  @Test(arguments: [
    "CombineLatest", "CombineLatest3", "CombineLatest4", "Zip", "Zip3", "Merge", "Merge3", "MergeMany", "Task",
    "TaskGroup", "AsyncStream", "AsyncThrowingStream", "MainActor", "AnyCancellable",
  ])
  func aSeedArticlesNameIsMapped(_ name: String) throws {
    let foreign = try #require(ForeignName.named(name), "'help \(name)' finds nothing")
    #expect(!foreign.api.isEmpty && !foreign.swift.isEmpty)
    #expect(check("help \(name)").isEmpty)
  }

  /// `help @MainActor`: one error, at the attribute, that says which help to ask for.
  @Test func anAttributeIsOneErrorThatPointsAtItsHelp() throws {
    let diagnostics = check("help @MainActor")
    #expect(diagnostics.count == 1)
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.message == "'@MainActor' is a Swift attribute: pipesh has none")
    #expect(diagnostic.range == SourceRange(5, 15))
    #expect(diagnostic.notes.joined().contains("'help MainActor'"))
  }

  /// pipesh's own subcommands typed at the prompt: where they run, and `help attach`.
  @Test(arguments: ["serve", "attach", "test", "lsp", "fmt"])
  func aSubcommandTypedAtThePromptSaysWhereItRuns(_ name: String) {
    let diagnostic = check("\(name) x").first
    #expect(diagnostic?.message == "unknown operator '\(name)'")
    #expect(diagnostic?.notes.first?.hasPrefix("pipesh \(name) is run from the system's shell") == true)
    #expect(check("help attach").isEmpty)
  }
}
