import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `max`: prints the largest element (nil for none), when the input ends.
  enum Max {
    static func run() -> Run {
      .sink(
        { input in
          Reduction(result: .none) { best, value in
            (best == .none || (!Evaluator.less(value, best) && value != best) ? value : best, true)
          }
        })
    }
  }
}
