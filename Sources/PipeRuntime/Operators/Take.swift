import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `take`: passes on the first N elements, then finishes.
  enum Take {
    static let entry = Operator(
      OperatorSignature(
        "take", .operator, usage: "take N", summary: "passes on the first N elements, then finishes",
        parameters: [.positional("count", .count, "how many")], example: "timer 1 | take 3",
        implementation: "prefix(_:)", typing: Typing.same),
      build: { input in ValueSequence(input.upstream.prefix(try input.int("count"))) },
      fusedStep: { input in
        let count = try input.int("count")
        return { Step(count: count) }
      })

    final class Step: FusedStep {
      let count: Int
      var taken = 0

      init(count: Int) {
        self.count = count
      }

      /// Once it has N, nothing more is pulled: unfused, `prefix` ends before asking again.
      var isSatisfied: Bool { taken >= count }

      func apply(_ value: Value) -> FusedOutcome {
        taken += 1
        return .pass(value)
      }
    }
  }
}
