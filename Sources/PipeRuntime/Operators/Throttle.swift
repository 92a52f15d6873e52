import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `throttle`: emits at most one element per interval: the latest (default) or the first of each window.
  enum Throttle {
    static let entry = Operator(
      OperatorSignature(
        "throttle", .operator, usage: "throttle INTERVAL [latest: Bool]",
        summary: "emits at most one element per interval: the latest (default) or the first of each window",
        parameters: [
          .positional("interval", .durationOrZero, "the window"),
          .labelled("latest", .bool, "true: the latest element of a window; false: the first"),
        ],
        example: "timer 1 | take 10 | throttle 3", implementation: "_throttle(for:clock:latest:)", typing: Typing.same),
      build: { input in
        ValueSequence(
          input.upstream._throttle(
            for: try input.duration("interval"), clock: input.clock, latest: input.optionalBool("latest") ?? true))
      })
  }
}
