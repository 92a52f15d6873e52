import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `drain`: consumes every element silently.
  enum Drain {
    static let entry = Operator(
      OperatorSignature(
        "drain", .sink, usage: "drain", summary: "consumes every element silently", example: "range 1 1000 | drain",
        implementation: "own sink", typing: Typing.same),
      sink: { input in
        ForEach { _, _ in }
      })
  }
}
