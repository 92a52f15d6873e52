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
          let intStep = input.compileIntPredicate(isIncluded).map(IntStep.filter)
          let predicate = input.compile(isIncluded)
          return { Step(predicate: predicate, intStep: intStep) }
        })
    }

    final class Step: FusedStep {
      let predicate: CompiledClosure
      let intStep: IntStep?

      init(predicate: @escaping CompiledClosure, intStep: IntStep?) {
        self.predicate = predicate
        self.intStep = intStep
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        try predicate(value, .none).isTrue ? .pass(value) : .skip
      }
    }
  }
}
