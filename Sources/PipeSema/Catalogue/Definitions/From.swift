import PipeSyntax

extension Catalogue {
  /// `from`: emits the given values, in order, and finishes.
  public enum From: OperatorDefinition {
    public static let values = Parameter.positional(
      "values", .value, repeats: true, "numbers, strings, Bools, nil, arrays or tuples")

    public static let signature = OperatorSignature(
      .from, .source, usage: "from V…", summary: "emits the given values, in order, and finishes",
      parameters: [values],
      example: "from 1 2 3", implementation: "[V].async"
    ) { typing in
      guard let type = typing.type(of: values) else {
        typing.error("give at least one value, as in 'from 1 2 3'")
        return nil
      }
      return type
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .from(values: try arguments.constants(values))
    }
  }
}
