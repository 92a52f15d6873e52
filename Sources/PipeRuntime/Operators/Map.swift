import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `map`: transforms each element.
  enum Map {
    static func run(transform: TypedExpr) -> Run {
      .node(
        build: { input in
          let transform = input.compile(transform)
          return ValueSequence(input.upstream.map { value throws in try transform(value, .none) })
        },
        fusedStep: { input in
          let transform = input.compile(transform)
          return { Step(transform: transform) }
        })
    }

    final class Step: FusedStep {
      let transform: CompiledClosure

      init(transform: @escaping CompiledClosure) {
        self.transform = transform
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        .pass(try transform(value, .none))
      }
    }
  }
}
