import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `reduce`: combines $0 (the result so far) with each element $1 and prints the result.
  enum Reduce {
    static func run(initial: Value, next: TypedExpr) -> Run {
      .sink(
        { input in
          let next = input.compile(next)
          return Reduction(result: initial) { result, value in (try next(result, value), true) }
        })
    }
  }
}
