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
          let predicate = input.compile(isIncluded)
          return { Step(predicate: predicate) }
        })
    }

    final class Step: FusedStep {
      let predicate: CompiledClosure

      init(predicate: @escaping CompiledClosure) {
        self.predicate = predicate
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        try predicate(value, .none).isTrue ? .pass(value) : .skip
      }
    }
  }
}
