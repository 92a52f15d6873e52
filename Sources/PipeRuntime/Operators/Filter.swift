import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `filter`: passes on the elements for which the closure is true.
  enum Filter {
    static func run(isIncluded: TypedExpr) -> Run {
      .node(
        build: { input in
          let predicate = input.compile(isIncluded)
          return ValueSequence(input.upstream.filter { value throws in try predicate(value, .none).isTrue })
        },
        fusedStep: { input in
          let intPredicate = input.compileIntPredicate(isIncluded)
          let predicate = input.compile(isIncluded)
          return { Step(predicate: predicate, intPredicate: intPredicate) }
        })
    }

    final class Step: FusedStep {
      let predicate: CompiledClosure
      let intPredicate: IntPredicate?

      init(predicate: @escaping CompiledClosure, intPredicate: IntPredicate?) {
        self.predicate = predicate
        self.intPredicate = intPredicate
      }

      var intStep: IntStep? { intPredicate.map { .filter($0) } }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        try predicate(value, .none).isTrue ? .pass(value) : .skip
      }
    }
  }
}
