import PipeSyntax

extension Catalogue {
  /// `random`: emits random integers in LO…HI, forever or N of them; a seed makes them repeatable.
  public enum Random: OperatorDefinition {
    public static let low = Parameter.positional("low", .int, "the smallest value")
    public static let high = Parameter.positional("high", .int, "the largest value")
    public static let count = Parameter.labelled("count", .count, "how many (default: no end)")
    public static let seed = Parameter.labelled("seed", .int, "a seed for repeatable values")

    public static let signature = OperatorSignature(
      .random, .source, usage: "random LO HI [count: N] [seed: S]",
      summary: "emits random integers in LO…HI, forever or N of them; a seed makes them repeatable",
      parameters: [low, high, count, seed],
      example: "random 1 6 count: 5 seed: 42", implementation: "own (RandomSequence, SplitMix64 when seeded)"
    ) { typing in
      if let lowest = typing.int(low), let highest = typing.int(high), lowest > highest {
        typing.error("LO (\(lowest)) must not be larger than HI (\(highest))", at: high)
        return nil
      }
      return .int
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .random(
        low: try arguments.integer(low), high: try arguments.integer(high), count: try arguments.optionalInteger(count),
        seed: try arguments.optionalInteger(seed))
    }
  }
}
