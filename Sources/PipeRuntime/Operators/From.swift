import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `from`: emits the given values, in order, and finishes.
  enum From {
    static func run(values: [Value]) -> Run {
      .node(
        build: { input in
          ValueSequence(values.async)
        },
        fusedSource: { input in .values(values) })
    }
  }
}
