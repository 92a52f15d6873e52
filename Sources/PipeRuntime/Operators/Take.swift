import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `take`: passes on the first N elements, then finishes.
  enum Take {
    static func run(count: Int) -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.prefix(count)) },
        fusedStep: { input in
          let (count, overInts) = (count, input.takesInts)
          return { Step(count: count, overInts: overInts) }
        })
    }

    final class Step: FusedStep {
      let count: Int
      let overInts: Bool
      var taken = 0

      init(count: Int, overInts: Bool) {
        self.count = count
        self.overInts = overInts
      }

      /// Once it has N, nothing more is pulled: unfused, `prefix` ends before asking again.
      var canBeSatisfied: Bool { true }
      var isSatisfied: Bool { taken >= count }

      func apply(_ value: Value) -> FusedOutcome {
        passes() ? .pass(value) : .skip
      }

      var intStep: IntStep? {
        guard overInts else { return nil }
        return .filter { _, _ in self.passes() }
      }

      /// Counts the element; every one passes (`isSatisfied` stops the run after N).
      private func passes() -> Bool {
        taken += 1
        return true
      }
    }
  }
}
