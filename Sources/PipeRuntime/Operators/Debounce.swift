import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `debounce`: emits an element once no newer one came for the interval.
  enum Debounce {
    static let entry = Operator(
      OperatorSignature(
        "debounce", .operator, usage: "debounce INTERVAL",
        summary: "emits an element once no newer one came for the interval",
        parameters: [.positional("interval", .durationOrZero, "the quiet time")],
        example: "marble \"ab-c---d|\" | debounce 2", implementation: "debounce(for:clock:)", typing: Typing.same),
      build: { input in
        ValueSequence(input.upstream.debounce(for: try input.duration("interval"), clock: input.clock))
      })
  }
}
