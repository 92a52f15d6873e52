import MarbleDiagrams
import PipeSema
import Testing

/// AA's diagram notation has one reader (`DiagramReading`); `validate`'s `ValidationDiagram`
/// counts bytes and says AA's words, `Marbles` counts characters and says its own.
struct DiagramReadingTests {
  @Test func bothReadTheSameStepsAndEvents() throws {
    let text = "é-'x y',[b|]"
    let validation = try ValidationDiagram.parse(text).get()
    #expect(
      validation.entries.map { "\($0.step)@\($0.offset)" } == ["1@0", "3@3", "4@8", "5@10", "5@11"])
    #expect(validation.stepOffsets == [1: 0, 2: 2, 3: 3, 4: 8])
    #expect(validation.requests == [0, 1, 5, 5, 5])
    let marbles = try Marbles(text)
    #expect(marbles.events.map(\.step) == [1, 3, 5, 5])
    #expect(marbles.events.map(\.event) == [.value("é"), .value("x y"), .value("b"), .finished])
    #expect(marbles.delays == [4])
    #expect(marbles.length == 5)
  }

  @Test(arguments: [
    ("a[b-]", 3, "validation diagram step symbol in group", 3, "'-' inside a group: a group is one step"),
    ("é[[a]]", 3, "validation diagram nested grouping", 2, "'[' inside a group: groups do not nest"),
    ("é]", 2, "validation diagram unbalanced grouping", 1, "']' without '['"),
    ("é-[a", 5, "validation diagram unbalanced grouping", 2, "unterminated group: close it with ']'"),
    ("é'ab", 2, "unterminated quoted value", 1, "unterminated quoted value: close it with '"),
    // Both open: validate tells the group (at the end), Marbles the quote (where it opens).
    ("[a'b", 4, "validation diagram unbalanced grouping", 2, "unterminated quoted value: close it with '"),
  ])
  func eachSaysAProblemInItsWords(
    _ text: String, _ byte: Int, _ validationMessage: String, _ character: Int, _ marblesMessage: String
  ) {
    let problem = #expect(throws: MarbleDiagram.Problem.self) { try ValidationDiagram.parse(text).get() }
    #expect(problem?.offset == byte)
    #expect(problem?.message == validationMessage)
    let error = #expect(throws: MarbleSyntaxError.self) { try Marbles(text) }
    #expect(error?.offset == character)
    #expect(error?.message == marblesMessage)
  }
}
