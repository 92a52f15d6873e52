import PipeSyntax

extension Catalogue {
  /// `first`: prints the first element (nil for none) and stops its input.
  public enum First: OperatorDefinition {

    public static let signature = OperatorSignature(
      .first, .sink, usage: "first", summary: "prints the first element (nil for none) and stops its input",
      example: "timer 1 | first", implementation: "own sink"
    ) { typing in
      .optional(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .first
    }
  }
}
