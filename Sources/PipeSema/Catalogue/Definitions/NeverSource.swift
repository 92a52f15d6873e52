import PipeSyntax

extension Catalogue {
  /// `never`: emits nothing and never finishes (until cancelled).
  public enum NeverSource: OperatorDefinition {

    public static let signature = OperatorSignature(
      .never, .source, usage: "never", summary: "emits nothing and never finishes (until cancelled)",
      example: "never | timeout 2", implementation: "own (NeverSequence)"
    ) { typing in
      .never
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .never
    }
  }
}
