import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `reduce`: combines $0 (the result so far) with each element $1 and prints the result.
  enum Reduce {
    static let entry = Operator(
      OperatorSignature(
        "reduce", .sink, usage: "reduce INIT { e }",
        summary: "combines $0 (the result so far) with each element $1 and prints the result",
        parameters: [
          .positional("initial", .value, "the first result"),
          .positional("next", .closure, "the next result, from $0 and $1"),
        ],
        example: "range 1 5 | reduce 1 { $0 * $1 }", implementation: "own sink", typing: Typing.accumulate),
      sink: { input in
        let next = try input.closure("next")
        return Reduction(result: try input.value("initial")) { result, value in (try next(result, value), true) }
      })
  }
}
