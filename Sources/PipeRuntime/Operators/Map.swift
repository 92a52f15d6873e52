import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `map`: transforms each element.
  enum Map {
    static let entry = Operator(
      OperatorSignature(
        "map", .operator, usage: "map { e }", summary: "transforms each element",
        parameters: [.positional("transform", .closure, "the new element, from $0")],
        example: "from 1 2 3 | map { $0 * 10 }", implementation: "map (standard library)"
      ) { typing in
        typing.closure("transform", [typing.input])?.type
      },
      build: { input in
        let transform = try input.closure("transform")
        return ValueSequence(input.upstream.map { value throws in try transform(value, .none) })
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
        .pass(try transform(value, .none))
      }
    }
  }
}
