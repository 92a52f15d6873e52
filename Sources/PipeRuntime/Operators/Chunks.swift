import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `chunks`: emits arrays of N elements (or fewer, when the interval ends first or the input ends).
  enum Chunks {
    static func run(count: Int, every: Duration?) -> Run {
      .node(
        build: { input in
          let count = count
          if let every = every {
            let timer = AsyncTimerSequence(interval: every, clock: input.clock)
            return ValueSequence(input.upstream.chunks(ofCount: count, or: timer).map { Value.array($0) })
          }
          return ValueSequence(input.upstream.chunks(ofCount: count).map { Value.array($0) })
        })
    }
  }
}
