import PipeSyntax

extension Catalogue {
  /// `removeDuplicates`: drops an element equal to the one before it.
  public enum RemoveDuplicates: OperatorDefinition {

    public static let signature = OperatorSignature(
      .removeDuplicates, .operator, usage: "removeDuplicates",
      summary: "drops an element equal to the one before it", example: "from 1 1 2 2 1 | removeDuplicates",
      implementation: "removeDuplicates()", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .removeDuplicates
    }
  }
}
