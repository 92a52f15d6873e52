import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `reductions`: emits each running result of combining $0 (the result so far) with $1 (the element).
  enum Reductions {
    static func run(initial: Value?, next: TypedExpr) -> Run {
      .node(
        build: { input in
          let next = input.compile(next)
          if let initial = initial {
            return ValueSequence(
              input.upstream.reductions(initial) { result, element throws in try next(result, element) })
          }
          return ValueSequence(input.upstream.reductions { result, element throws in try next(result, element) })
        })
    }
  }
}
