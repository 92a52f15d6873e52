import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `max`: prints the largest element (nil for none), when the input ends.
  enum Max {
    static let entry = Operator(
      OperatorSignature(
        "max", .sink, usage: "max", summary: "prints the largest element (nil for none), when the input ends",
        example: "from 3 1 2 | max", implementation: "own sink", typing: Typing.comparableOptional),
      sink: { input in
        Reduction(result: .none) { best, value in
          (best == .none || (!Evaluator.less(value, best) && value != best) ? value : best, true)
        }
      })
  }
}
