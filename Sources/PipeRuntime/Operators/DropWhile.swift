import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `dropWhile`: drops elements while the closure is true.
  enum DropWhile {
    static let entry = Operator(
      OperatorSignature(
        "dropWhile", .operator, usage: "dropWhile { e }", summary: "drops elements while the closure is true",
        parameters: [.positional("predicate", .closure, "a Bool, from $0")],
        example: "range 1 6 | dropWhile { $0 < 4 }", implementation: "drop(while:)",
        typing: Typing.predicate("predicate")),
      build: { input in
        let predicate = try input.closure("predicate")
        return ValueSequence(input.upstream.drop { value throws in try predicate(value, .none) == .bool(true) })
      },
      fusedStep: { input in
        let predicate = try input.closure("predicate")
        return { Step(predicate: predicate) }
      })

    final class Step: FusedStep {
      let predicate: CompiledClosure
      var dropping = true

      init(predicate: @escaping CompiledClosure) {
        self.predicate = predicate
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        if dropping, try predicate(value, .none) == .bool(true) { return .skip }
        dropping = false
        return .pass(value)
      }
    }
  }
}
