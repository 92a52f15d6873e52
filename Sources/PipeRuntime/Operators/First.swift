import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `first`: prints the first element (nil for none) and stops its input.
  enum First {
    static let entry = Operator(
      OperatorSignature(
        "first", .sink, usage: "first", summary: "prints the first element (nil for none) and stops its input",
        example: "timer 1 | first", implementation: "own sink"
      ) { typing in
        .optional(typing.input)
      },
      sink: { input in
        Reduction(result: .none) { _, value in (value, false) }
      })
  }
}
