import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `chunked`: emits the elements of each interval as an array.
  enum Chunked {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          let timer = AsyncTimerSequence(interval: interval, clock: input.clock)
          return ValueSequence(input.upstream.chunked(by: timer).map { Value.array($0) })
        })
    }
  }
}
