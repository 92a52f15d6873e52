import PipeSyntax

extension Catalogue {
  /// `sum`: prints the sum of the elements, when the input ends.
  public enum Sum: OperatorDefinition {

    public static let signature = OperatorSignature(
      .sum, .sink, usage: "sum", summary: "prints the sum of the elements, when the input ends",
      example: "range 1 100 | sum", implementation: "own sink"
    ) { typing in
      guard typing.input.isNumeric else {
        typing.error("its input must be Int or Double, but it is '\(typing.input)'")
        return nil
      }
      return typing.input == .never ? .int : typing.input
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .sum
    }
  }
}
