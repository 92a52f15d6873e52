import PipeSyntax

extension Catalogue {
  /// `drain`: consumes every element silently.
  public enum Drain: OperatorDefinition {

    public static let signature = OperatorSignature(
      .drain, .sink, usage: "drain", summary: "consumes every element silently", example: "range 1 1000 | drain",
      implementation: "own sink", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .drain
    }
  }
}
