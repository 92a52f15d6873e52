import PipeSyntax

extension Catalogue {
  /// `count`: prints how many elements came, when the input ends.
  public enum Count: OperatorDefinition {
    public static let signature = OperatorSignature(
      .count, .sink, usage: "count", summary: "prints how many elements came, when the input ends",
      example: "range 1 100 | filter { $0 % 7 == 0 } | count", implementation: "own sink"
    ) { _ in
      .int
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .count
    }
  }
}
