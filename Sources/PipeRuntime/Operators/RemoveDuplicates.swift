import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `removeDuplicates`: drops an element equal to the one before it.
  enum RemoveDuplicates {
    static func run() -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.removeDuplicates()) })
    }
  }
}
