import AsyncAlgorithms
import Locking
import PipeEvaluator
import PipeSema

extension Operators {
  /// `chunked`: emits the elements of each interval, each run of neighbours a closure keeps
  /// together, or those before each element of a signal, as an array.
  enum Chunked {
    static func run(by boundary: ChunkBoundary<Resolved>) -> Run {
      switch boundary {
      case .every(let interval):
        .node(
          build: { input in
            let timer = AsyncTimerSequence(interval: interval, clock: input.clock)
            return ValueSequence(input.upstream.chunked(by: timer).map { Value.array($0) })
          })
      case .signal:
        .node(
          build: { input in
            // The signal is the stage's input, built as its own nodes; AA's `chunked(by:)` reads it.
            guard input.inputs.count == 1, let signal = input.inputs.first else {
              throw input.bug("\(input.inputs.count) signals for chunked")
            }
            return ValueSequence(input.upstream.chunked(by: signal).map { Value.array($0) })
          })
      case .belongTogether(let closure):
        .node(
          build: { input in
            let belongTogether = input.compile(closure)
            // AA's closure cannot throw, and pipesh's can (`{ $0 / $1 > 1 }`): a failure ends the
            // chunk there, and the chunk's element then fails with it.
            let failure = Locked<PipelineError?>(nil)
            let chunks = input.upstream.chunked { before, next in
              do throws(PipelineError) {
                return try belongTogether(before, next).isTrue
              } catch {
                failure.withLock { $0 = $0 ?? error }
                return false
              }
            }
            return ValueSequence(
              chunks.map { chunk throws in
                if let error = failure.withLock({ $0 }) { throw error }
                return Value.array(chunk)
              })
          })
      }
    }
  }
}
