import PipeSyntax

extension Catalogue {
  /// `enumerated`: emits (index, element) tuples, counting from 0.
  public enum Enumerated: OperatorDefinition {

    public static let signature = OperatorSignature(
      .enumerated, .operator, usage: "enumerated", summary: "emits (index, element) tuples, counting from 0",
      example: "from \"a\" \"b\" | enumerated", implementation: "own (EnumeratedSequence)"
    ) { typing in
      .tuple([.int, typing.input])
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .enumerated
    }
  }
}
