import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `dropWhile`: drops elements while the closure is true.
  enum DropWhile {
    static func run(predicate: TypedExpr) -> Run {
      .node(
        build: { input in
          let predicate = input.compile(predicate)
          return ValueSequence(input.upstream.drop { value throws in try predicate(value, .none).isTrue })
        },
        fusedStep: { input in
          let predicate = input.compile(predicate)
          return { Step(predicate: predicate) }
        })
    }

    final class Step: FusedStep {
      let predicate: CompiledClosure
      var dropping = true

      init(predicate: @escaping CompiledClosure) {
        self.predicate = predicate
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        if dropping, try predicate(value, .none).isTrue { return .skip }
        dropping = false
        return .pass(value)
      }
    }
  }
}
