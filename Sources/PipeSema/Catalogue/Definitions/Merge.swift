import PipeSyntax

extension Catalogue {
  /// `merge`: emits the elements of all inputs as they come.
  public enum Merge: OperatorDefinition {

    public static let signature = OperatorSignature(
      .merge, .combinator, usage: "merge(P, P, …)", summary: "emits the elements of all inputs as they come",
      inputs: 2...16, example: "merge(timer 1 | map { $0 * 10 } | take 2, timer 1.5 | take 2)",
      implementation: "merge (nested beyond three)", typing: Typing.unifiedInputs)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .merge
    }
  }
}
