import PipeSyntax

extension Catalogue {
  /// `chunks`: emits arrays of N elements (or fewer, when the interval or the signal ends one
  /// first, or the input ends).
  public enum Chunks: OperatorDefinition {
    public static let count = Parameter.positional("count", .positiveCount, "the size of a chunk")
    public static let every = Parameter.labelled("every", .duration, "also end a chunk this often")
    public static let signal = Parameter.labelled(
      "or", .sequence, "also end a chunk at each element of this pipeline (a source first); of any type")

    public static let signature = OperatorSignature(
      .chunks, .operator, usage: "chunks N [every: INTERVAL | or: (P)]",
      summary:
        "emits arrays of N elements (or fewer, when the interval or an element of the or: pipeline ends one first, or the input ends)",
      parameters: [count, every, signal],
      example: "timer 1 | take 8 | chunks 3 or: (timer 2.4)",
      implementation: "chunks(ofCount:) / chunks(ofCount:or:) with a timer or a signal sequence"
    ) { typing in
      if typing.has(every), typing.has(signal) {
        typing.error("give every: INTERVAL or or: (PIPELINE), not both", at: signal)
        return nil
      }
      return .array(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      let size = try arguments.integer(count)
      if let sequence = try arguments.optionalSequence(signal) { return .chunks(count: size, or: .signal(sequence)) }
      return .chunks(count: size, or: try arguments.optionalInterval(every).map { .every($0) })
    }
  }
}
