import PipeSema
import Testing

/// `explore`'s tokens: a word reads back as what made it, and what is not one is refused.
@Suite("order tokens")
struct OrderTokenTests {
  @Test(
    "a token reads back",
    arguments: [
      [], [0, 0, 1], [1], [0, 2, 0, 1, 0, 0, 3], Array(repeating: 0, count: 300) + [200], [1, 1, 1, 1, 1],
    ])
  func roundTrip(_ choices: [Int]) throws {
    let token = OrderToken(program: 0xDEAD_BEEF, choices: choices)
    let read = try #require(OrderToken(word: token.word))
    #expect(read == token)
    #expect(read.choices.last != 0)
    #expect(token.word.first == "o")
  }

  @Test("the first task at the end is left out")
  func trailingFirstsAreLeftOut() {
    #expect(OrderToken(program: 1, choices: [0, 1, 0, 0]).word == OrderToken(program: 1, choices: [0, 1]).word)
  }

  @Test(
    "what is not a token is refused", arguments: ["", "o", "oabc", "xaaaaaaa", "oAAAAAAA", "oaaaaaaa1", "oaaaaaab"])
  func refused(_ word: String) {
    #expect(OrderToken(word: word) == nil)
  }
}
