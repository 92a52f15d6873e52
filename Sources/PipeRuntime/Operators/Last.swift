import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `last`: prints the last element (nil for none), when the input ends.
  enum Last {
    static let entry = Operator(
      OperatorSignature(
        "last", .sink, usage: "last", summary: "prints the last element (nil for none), when the input ends",
        example: "from 1 2 3 | last", implementation: "own sink"
      ) { typing in
        .optional(typing.input)
      },
      sink: { input in
        Reduction(result: .none) { _, value in (value, true) }
      })
  }
}
