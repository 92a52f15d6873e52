import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `adjacentPairs`: emits each element paired with the one before it.
  enum AdjacentPairs {
    static let entry = Operator(
      OperatorSignature(
        "adjacentPairs", .operator, usage: "adjacentPairs", summary: "emits each element paired with the one before it",
        example: "from 1 2 3 4 | adjacentPairs", implementation: "adjacentPairs()"
      ) { typing in
        .tuple([typing.input, typing.input])
      },
      build: { input in ValueSequence(input.upstream.adjacentPairs().map { Value.tuple([$0.0, $0.1]) }) })
  }
}
