import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `drop`: drops the first N elements, passes on the rest.
  enum Drop {
    static func run(count: Int) -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.dropFirst(count)) },
        fusedStep: { input in
          let count = count
          return { Step(count: count) }
        })
    }

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
