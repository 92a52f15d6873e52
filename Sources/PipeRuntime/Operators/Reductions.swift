import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `reductions`: emits each running result of combining $0 (the result so far) with $1 (the element).
  enum Reductions {
    static let entry = Operator(
      OperatorSignature(
        "reductions", .operator, usage: "reductions [INIT] { e }  (alias scan)",
        summary: "emits each running result of combining $0 (the result so far) with $1 (the element)",
        parameters: [
          .positional("initial", .value, optional: true, "the first result; without it, the first element"),
          .positional("next", .closure, "the next result, from $0 and $1"),
        ],
        example: "range 1 5 | reductions 0 { $0 + $1 }", implementation: "reductions(_:_:) / reductions(_:)",
        typing: Typing.accumulate),
      build: { input in
        let next = try input.closure("next")
        if let initial = input.optionalValue("initial") {
          return ValueSequence(
            input.upstream.reductions(initial) { result, element throws in try next(result, element) })
        }
        return ValueSequence(input.upstream.reductions { result, element throws in try next(result, element) })
      })
  }
}
