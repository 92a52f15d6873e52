import PipeSyntax

extension Catalogue {
  /// `zip`: emits tuples, pairing the inputs' elements in order.
  public enum Zip: OperatorDefinition {

    public static let signature = OperatorSignature(
      .zip, .combinator, usage: "zip(P, P[, P])", summary: "emits tuples, pairing the inputs' elements in order",
      inputs: 2...3, example: "zip(from 1 2 3, from \"a\" \"b\")", implementation: "zip", typing: Typing.tupleOfInputs
    )

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .zip
    }
  }
}
