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
          let intStep = input.compileInt(transform).map(IntStep.map)
          let transform = input.compile(transform)
          return { Step(transform: transform, intStep: intStep) }
        })
    }

    final class Step: FusedStep {
      let transform: CompiledClosure
      let intStep: IntStep?

      init(transform: @escaping CompiledClosure, intStep: IntStep?) {
        self.transform = transform
        self.intStep = intStep
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        .pass(try transform(value, .none))
      }
    }
  }
}
