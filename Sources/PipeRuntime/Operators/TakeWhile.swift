import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `takeWhile`: passes on elements while the closure is true.
  enum TakeWhile {
    static func run(predicate: TypedExpr) -> Run {
      .node(
        build: { input in
          let predicate = input.compile(predicate)
          return ValueSequence(try input.upstream.prefix { value throws in try predicate(value, .none).isTrue })
        },
        fusedStep: { input in
          let predicate = input.compile(predicate)
          return { Step(predicate: predicate) }
        })
    }

    final class Step: FusedStep {
      let predicate: CompiledClosure

      init(predicate: @escaping CompiledClosure) {
        self.predicate = predicate
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        try predicate(value, .none).isTrue ? .pass(value) : .stop
      }
    }
  }
}
