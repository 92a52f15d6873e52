import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `removeDuplicates`: drops an element equal to the one before it.
  enum RemoveDuplicates {
    static let entry = Operator(
      OperatorSignature(
        "removeDuplicates", .operator, usage: "removeDuplicates",
        summary: "drops an element equal to the one before it", example: "from 1 1 2 2 1 | removeDuplicates",
        implementation: "removeDuplicates()", typing: Typing.same),
      build: { input in ValueSequence(input.upstream.removeDuplicates()) })
  }
}
