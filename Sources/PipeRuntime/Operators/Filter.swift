import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `filter`: passes on the elements for which the closure is true.
  enum Filter {
    static let entry = Operator(
      OperatorSignature(
        "filter", .operator, usage: "filter { e }", summary: "passes on the elements for which the closure is true",
        parameters: [.positional("isIncluded", .closure, "a Bool, from $0")],
        example: "range 1 10 | filter { $0 % 3 == 0 }", implementation: "filter (standard library)",
        typing: Typing.predicate("isIncluded")),
      build: { input in
        let predicate = try input.closure("isIncluded")
        return ValueSequence(input.upstream.filter { value throws in try predicate(value, .none) == .bool(true) })
      },
      fusedStep: { input in
        let predicate = try input.closure("isIncluded")
        return { Step(predicate: predicate) }
      })

    final class Step: FusedStep {
      let predicate: CompiledClosure

      init(predicate: @escaping CompiledClosure) {
        self.predicate = predicate
      }

      func apply(_ value: Value) throws(PipelineError) -> FusedOutcome {
        try predicate(value, .none) == .bool(true) ? .pass(value) : .skip
      }
    }
  }
}
