import PipeSyntax

extension Catalogue {
  /// `chain`: emits all of the first input, then all of the next….
  public enum Chain: OperatorDefinition {

    public static let signature = OperatorSignature(
      .chain, .combinator, usage: "chain(P, P, …)", summary: "emits all of the first input, then all of the next…",
      inputs: 2...16, example: "chain(from 1 2, from 3 4)", implementation: "chain (nested beyond three)",
      typing: Typing.unifiedInputs)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .chain
    }
  }
}
