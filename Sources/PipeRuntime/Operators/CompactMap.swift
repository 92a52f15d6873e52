import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `compactMap`: transforms each element, dropping nil results.
  enum CompactMap {
    static let entry = Operator(
      OperatorSignature(
        "compactMap", .operator, usage: "compactMap { e }", summary: "transforms each element, dropping nil results",
        parameters: [.positional("transform", .closure, "an optional new element, from $0")],
        example: "from \"1\" \"x\" \"3\" | compactMap { int($0) }", implementation: "compactMap (standard library)"
      ) { typing in
        typing.closure("transform", [typing.input])?.type.unwrapped
      },
      build: { input in
        let transform = try input.closure("transform")
        return ValueSequence(
          input.upstream.compactMap { value throws -> Value? in
            let result = try transform(value, .none)
            return result == .none ? nil : result
          })
      },
      fusedStep: { input in
        let transform = try input.closure("transform")
        return { Step(transform: transform) }
      })

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
