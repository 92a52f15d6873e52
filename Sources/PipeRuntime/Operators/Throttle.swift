import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `throttle`: emits at most one element per interval: the latest (default) or the first of each window.
  enum Throttle {
    static func run(interval: Duration, latest: Bool) -> Run {
      .node(
        build: { input in
          ValueSequence(
            input.upstream._throttle(
              for: interval, clock: input.clock, latest: latest))
        })
    }
  }
}
