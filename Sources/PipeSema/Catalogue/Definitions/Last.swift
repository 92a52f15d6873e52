import PipeSyntax

extension Catalogue {
  /// `last`: prints the last element (nil for none), when the input ends.
  public enum Last: OperatorDefinition {

    public static let signature = OperatorSignature(
      .last, .sink, usage: "last", summary: "prints the last element (nil for none), when the input ends",
      example: "from 1 2 3 | last", implementation: "own sink"
    ) { typing in
      .optional(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .last
    }
  }
}
