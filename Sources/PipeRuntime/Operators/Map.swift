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
          let intTransform = input.compileInt(transform)
          let transform = input.compile(transform)
          return { Step(transform: transform, intTransform: intTransform) }
        })
    }

    final class Step: FusedStep {
      let transform: CompiledClosure
      let intTransform: IntClosure?

      init(transform: @escaping CompiledClosure, intTransform: IntClosure?) {
        self.transform = transform
        self.intTransform = intTransform
      }

      var intStep: IntStep? { intTransform.map(IntStep.map) }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        .pass(try transform(value, .none))
      }
    }
  }
}
