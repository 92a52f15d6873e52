import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `takeWhile`: passes on elements while the closure is true.
  enum TakeWhile {
    static let entry = Operator(
      OperatorSignature(
        "takeWhile", .operator, usage: "takeWhile { e }", summary: "passes on elements while the closure is true",
        parameters: [.positional("predicate", .closure, "a Bool, from $0")],
        example: "range 1 10 | takeWhile { $0 < 4 }", implementation: "prefix(while:)",
        typing: Typing.predicate("predicate")),
      build: { input in
        let predicate = try input.closure("predicate")
        return ValueSequence(try input.upstream.prefix { value throws in try predicate(value, .none) == .bool(true) })
      },
      fusedStep: { input in
        let predicate = try input.closure("predicate")
        return { Step(predicate: predicate) }
      })

    final class Step: FusedStep {
      let predicate: CompiledClosure

      init(predicate: @escaping CompiledClosure) {
        self.predicate = predicate
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        try predicate(value, .none) == .bool(true) ? .pass(value) : .stop
      }
    }
  }
}
