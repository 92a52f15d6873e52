import PipeSyntax

extension Catalogue {
  /// `collect`: prints all elements as one array, when the input ends.
  public enum Collect: OperatorDefinition {

    public static let signature = OperatorSignature(
      .collect, .sink, usage: "collect", summary: "prints all elements as one array, when the input ends",
      example: "range 1 5 | collect", implementation: "own sink"
    ) { typing in
      .array(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .collect
    }
  }
}
