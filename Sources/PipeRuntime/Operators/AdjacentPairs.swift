import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `adjacentPairs`: emits each element paired with the one before it.
  enum AdjacentPairs {
    static func run() -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.adjacentPairs().map { Value.tuple([$0.0, $0.1]) }) })
    }
  }
}
