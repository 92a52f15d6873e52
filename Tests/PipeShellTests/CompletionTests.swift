import PipeShell
import Testing

/// Tab completion offers what may stand where the cursor is, and nothing else.
@Suite("completion")
struct CompletionTests {
  func candidates(_ before: String) -> [String] {
    Completion.complete(before, CompletionContext()).candidates
  }

  @Test func helpTopicsOnlyAfterHelp() {
    #expect(!candidates("").contains("marbles"))
    #expect(!candidates("ti").contains("time"))
    #expect(candidates("ti").contains("timer"))
    #expect(candidates("help ").contains("marbles"))
    #expect(candidates("help ti").contains("time"))
  }

  @Test func aLabelAlreadyWrittenIsNotOfferedAgain() {
    #expect(candidates("from 1 | throttle 2 ").contains("latest:"))
    #expect(!candidates("from 1 | throttle 2 latest: ").contains("latest:"))
    #expect(!candidates("from 1 | print label: \"x\" ").contains("label:"))
    #expect(candidates("from 1 | print label: \"x\" ").contains("time:"))
  }

  @Test func aBoolLabelIsFollowedByItsValues() {
    #expect(candidates("from 1 | print time: ") == ["false", "true"])
    #expect(candidates("from 1 | print time: t") == ["true"])
    #expect(candidates("from 1 | print label: ").isEmpty)
  }

  @Test func drawAndCompareOfferTheirOptionsAfterThePipeline() {
    #expect(candidates("draw timer 1 | take 3 ").contains("tick:"))
    #expect(candidates("draw timer 1 | take 3 ").contains("until:"))
    #expect(candidates("draw timer 1 | take 3 ").contains("to:"))
    #expect(candidates("trace timer 1 | take 3 ").contains("to:"))
    #expect(candidates("compare timer 1 | take 3 ").contains("to:"))
    #expect(candidates("compare marble \"ab|\" | debounce 1 ").contains("until:"))
    #expect(!candidates("draw timer 1 | take 3 tick: 2 ").contains("tick:"))
    // Inside parentheses an option belongs to what is inside: not draw's.
    #expect(!candidates("draw (timer 1 | take 3 ").contains("until:"))
  }

  @Test func exploreOffersItsSourcesThenItsOptions() {
    #expect(candidates("explore ti").contains("timer"))
    #expect(candidates("explore timer 1 | take 3 ").contains("orders:"))
    #expect(candidates("explore timer 1 | take 3 ").contains("until:"))
    #expect(candidates("draw timer 1 | take 3 ").contains("order:"))
    #expect(!candidates("explore timer 1 | take 3 orders: 5 ").contains("orders:"))
  }

  @Test func expectOffersInEveryOrderWordByWord() {
    #expect(candidates("expect timer 1 | take 3 prints 0 1 2 ").contains("in:"))
    #expect(candidates("expect timer 1 | take 3 prints 0 1 2 ").contains("orders:"))
    #expect(candidates("expect timer 1 | take 3 prints 0 1 2 in: ") == ["every"])
    #expect(candidates("expect timer 1 | take 3 prints 0 1 2 in: ev") == ["every"])
    #expect(candidates("expect timer 1 | take 3 prints 0 1 2 in: every ") == ["order"])
    #expect(!candidates("expect timer 1 | take 3 prints 0 1 2 in: every order ").contains("in:"))
  }

  @Test func clockOffersItsTwoWords() {
    #expect(candidates("clock ") == ["real", "virtual"])
    #expect(candidates("clock v") == ["virtual"])
  }
}
