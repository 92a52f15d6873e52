import PipeSyntax

extension Catalogue {
  /// `min`: prints the smallest element (nil for none), when the input ends.
  public enum Min: OperatorDefinition {

    public static let signature = OperatorSignature(
      .min, .sink, usage: "min", summary: "prints the smallest element (nil for none), when the input ends",
      example: "from 3 1 2 | min", implementation: "own sink", typing: Typing.comparableOptional)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .min
    }
  }
}
