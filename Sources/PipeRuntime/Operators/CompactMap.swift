import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `compactMap`: transforms each element, dropping nil results.
  enum CompactMap {
    static func run(transform: TypedExpr) -> Run {
      .node(
        build: { input in
          let transform = input.compile(transform)
          return ValueSequence(
            input.upstream.compactMap { value throws -> Value? in
              let result = try transform(value, .none)
              return result == .none ? nil : result
            })
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
        let result = try transform(value, .none)
        return result == .none ? .skip : .pass(result)
      }
    }
  }
}
