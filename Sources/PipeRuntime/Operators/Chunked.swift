import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `chunked`: emits the elements of each interval as an array.
  enum Chunked {
    static let entry = Operator(
      OperatorSignature(
        "chunked", .operator, usage: "chunked INTERVAL", summary: "emits the elements of each interval as an array",
        parameters: [.positional("interval", .duration, "the length of a chunk")],
        example: "timer 1 | take 7 | chunked 3", implementation: "chunked(by:) with a timer"
      ) { typing in
        .array(typing.input)
      },
      build: { input in
        let timer = AsyncTimerSequence(interval: try input.duration("interval"), clock: input.clock)
        return ValueSequence(input.upstream.chunked(by: timer).map { Value.array($0) })
      })
  }
}
