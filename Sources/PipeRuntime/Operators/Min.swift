import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `min`: prints the smallest element (nil for none), when the input ends.
  enum Min {
    static func run() -> Run {
      .sink(
        { input in
          Reduction(result: .none) { best, value in
            (best == .none || Evaluator.less(value, best) ? value : best, true)
          }
        })
    }
  }
}
