import PipeSyntax

extension Catalogue {
  /// `max`: prints the largest element (nil for none), when the input ends.
  public enum Max: OperatorDefinition {

    public static let signature = OperatorSignature(
      .max, .sink, usage: "max", summary: "prints the largest element (nil for none), when the input ends",
      example: "from 3 1 2 | max", implementation: "own sink", typing: Typing.comparableOptional)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .max
    }
  }
}
