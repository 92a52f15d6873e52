import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `min`: prints the smallest element (nil for none), when the input ends.
  enum Min {
    static let entry = Operator(
      OperatorSignature(
        "min", .sink, usage: "min", summary: "prints the smallest element (nil for none), when the input ends",
        example: "from 3 1 2 | min", implementation: "own sink", typing: Typing.comparableOptional),
      sink: { input in
        Reduction(result: .none) { best, value in
          (best == .none || Evaluator.less(value, best) ? value : best, true)
        }
      })
  }
}
