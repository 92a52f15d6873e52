import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `empty`: emits nothing and finishes.
  enum Empty {
    static func run() -> Run {
      .node(
        build: { _ in ValueSequence([Value]().async) })
    }
  }
}
