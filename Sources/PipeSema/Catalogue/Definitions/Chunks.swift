import PipeSyntax

extension Catalogue {
  /// `chunks`: emits arrays of N elements (or fewer, when the interval ends first or the input ends).
  public enum Chunks: OperatorDefinition {
    public static let count = Parameter.positional("count", .positiveCount, "the size of a chunk")
    public static let every = Parameter.labelled("every", .duration, "also end a chunk this often")

    public static let signature = OperatorSignature(
      .chunks, .operator, usage: "chunks N [every: INTERVAL]",
      summary: "emits arrays of N elements (or fewer, when the interval ends first or the input ends)",
      parameters: [count, every],
      example: "range 1 7 | chunks 3", implementation: "chunks(ofCount:) / chunks(ofCount:or:) with a timer"
    ) { typing in
      .array(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .chunks(count: try arguments.integer(count), every: try arguments.optionalInterval(every))
    }
  }
}
