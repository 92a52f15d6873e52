import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `compacted`: drops nil elements and unwraps the rest.
  enum Compacted {
    static func run() -> Run {
      .node(
        build: { input in
          ValueSequence(input.upstream.map { $0 == .none ? nil : $0 }.compacted())
        })
    }
  }
}
