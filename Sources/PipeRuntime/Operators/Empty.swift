import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `empty`: emits nothing and finishes.
  enum Empty {
    static let entry = Operator(
      OperatorSignature(
        "empty", .source, usage: "empty", summary: "emits nothing and finishes", example: "empty | count",
        implementation: "[].async"
      ) { typing in
        .never
      },
      build: { _ in ValueSequence([Value]().async) })
  }
}
