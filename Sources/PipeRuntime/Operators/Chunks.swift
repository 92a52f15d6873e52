import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `chunks`: emits arrays of N elements (or fewer, when the interval or the signal ends one
  /// first, or the input ends).
  enum Chunks {
    static func run(count: Int, or signal: ChunkSignal<Resolved>?) -> Run {
      .node(
        build: { input in
          let count = count
          switch signal {
          case .every(let every):
            let timer = AsyncTimerSequence(interval: every, clock: input.clock)
            return ValueSequence(input.upstream.chunks(ofCount: count, or: timer).map { Value.array($0) })
          case .signal:
            // The signal is the stage's input, built as its own nodes; AA's `chunks(ofCount:or:)` reads it.
            guard input.inputs.count == 1, let signal = input.inputs.first else {
              throw input.bug("\(input.inputs.count) signals for chunks")
            }
            return ValueSequence(input.upstream.chunks(ofCount: count, or: signal).map { Value.array($0) })
          case nil:
            return ValueSequence(input.upstream.chunks(ofCount: count).map { Value.array($0) })
          }
        })
    }
  }
}
