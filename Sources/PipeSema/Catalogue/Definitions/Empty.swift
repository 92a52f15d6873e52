import PipeSyntax

extension Catalogue {
  /// `empty`: emits nothing and finishes.
  public enum Empty: OperatorDefinition {

    public static let signature = OperatorSignature(
      .empty, .source, usage: "empty", summary: "emits nothing and finishes", example: "empty | count",
      implementation: "[].async"
    ) { typing in
      .never
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .empty
    }
  }
}
