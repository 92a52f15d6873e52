import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `drop`: drops the first N elements, passes on the rest.
  enum Drop {
    static func run(count: Int) -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.dropFirst(count)) },
        fusedStep: { input in
          let (count, overInts) = (count, input.takesInts)
          return { Step(count: count, overInts: overInts) }
        })
    }

    final class Step: FusedStep {
      let count: Int
      let overInts: Bool
      var dropped = 0

      init(count: Int, overInts: Bool) {
        self.count = count
        self.overInts = overInts
      }

      func apply(_ value: Value) -> FusedOutcome {
        passes() ? .pass(value) : .skip
      }

      var intStep: IntStep? {
        guard overInts else { return nil }
        return .filter { _, _ in self.passes() }
      }

      private func passes() -> Bool {
        guard dropped >= count else {
          dropped += 1
          return false
        }
        return true
      }
    }
  }
}
