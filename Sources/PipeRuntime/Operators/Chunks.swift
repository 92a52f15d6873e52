import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `chunks`: emits arrays of N elements (or fewer, when the interval ends first or the input ends).
  enum Chunks {
    static let entry = Operator(
      OperatorSignature(
        "chunks", .operator, usage: "chunks N [every: INTERVAL]",
        summary: "emits arrays of N elements (or fewer, when the interval ends first or the input ends)",
        parameters: [
          .positional("count", .positiveCount, "the size of a chunk"),
          .labelled("every", .duration, "also end a chunk this often"),
        ],
        example: "range 1 7 | chunks 3", implementation: "chunks(ofCount:) / chunks(ofCount:or:) with a timer"
      ) { typing in
        .array(typing.input)
      },
      build: { input in
        let count = try input.int("count")
        if let every = input.optionalDuration("every") {
          let timer = AsyncTimerSequence(interval: every, clock: input.clock)
          return ValueSequence(input.upstream.chunks(ofCount: count, or: timer).map { Value.array($0) })
        }
        return ValueSequence(input.upstream.chunks(ofCount: count).map { Value.array($0) })
      })
  }
}
