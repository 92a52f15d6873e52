import PipeSyntax

extension Catalogue {
  /// `adjacentPairs`: emits each element paired with the one before it.
  public enum AdjacentPairs: OperatorDefinition {

    public static let signature = OperatorSignature(
      .adjacentPairs, .operator, usage: "adjacentPairs", summary: "emits each element paired with the one before it",
      example: "from 1 2 3 4 | adjacentPairs", implementation: "adjacentPairs()"
    ) { typing in
      .tuple([typing.input, typing.input])
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .adjacentPairs
    }
  }
}
