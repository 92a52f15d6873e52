import PipeSyntax

extension Catalogue {
  /// `combineLatest`: emits a tuple of the latest element of each input whenever one changes.
  public enum CombineLatest: OperatorDefinition {

    public static let signature = OperatorSignature(
      .combineLatest, .combinator, usage: "combineLatest(P, P[, P])",
      summary: "emits a tuple of the latest element of each input whenever one changes", inputs: 2...3,
      example: "combineLatest(timer 1 | take 3, timer 2 | take 2)", implementation: "combineLatest",
      typing: Typing.tupleOfInputs)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .combineLatest
    }
  }
}
