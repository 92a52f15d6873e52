import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `drop`: drops the first N elements, passes on the rest.
  enum Drop {
    static let entry = Operator(
      OperatorSignature(
        "drop", .operator, usage: "drop N", summary: "drops the first N elements, passes on the rest",
        parameters: [.positional("count", .count, "how many")], example: "from 1 2 3 4 | drop 2",
        implementation: "dropFirst(_:)", typing: Typing.same),
      build: { input in ValueSequence(input.upstream.dropFirst(try input.int("count"))) },
      fusedStep: { input in
        let count = try input.int("count")
        return { Step(count: count) }
      })

    final class Step: FusedStep {
      let count: Int
      var dropped = 0

      init(count: Int) {
        self.count = count
      }

      func apply(_ value: Value) -> FusedOutcome {
        guard dropped >= count else {
          dropped += 1
          return .skip
        }
        return .pass(value)
      }
    }
  }
}
