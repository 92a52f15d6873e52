import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `interspersed`: emits V between each two elements.
  enum Interspersed {
    static func run(separator: Value) -> Run {
      .node(
        build: { input in ValueSequence(input.upstream.interspersed(with: separator)) })
    }
  }
}
