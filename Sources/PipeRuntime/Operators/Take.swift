import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `take`: passes on the first N elements, then finishes.
  enum Take {
    static func run(count: Int) -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.prefix(count)) },
        fusedStep: { input in
          let count = count
          return { Step(count: count) }
        })
    }

    final class Step: FusedStep {
      let count: Int
      var taken = 0

      init(count: Int) {
        self.count = count
      }

      /// Once it has N, nothing more is pulled: unfused, `prefix` ends before asking again.
      var canBeSatisfied: Bool { true }
      var isSatisfied: Bool { taken >= count }

      func apply(_ value: Value) -> FusedOutcome {
        taken += 1
        return .pass(value)
      }
    }
  }
}
