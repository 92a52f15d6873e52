import PipeSyntax

extension Catalogue {
  /// `interspersed`: emits V between each two elements.
  public enum Interspersed: OperatorDefinition {
    public static let separator = Parameter.positional("separator", .value, "a value of the element type")

    public static let signature = OperatorSignature(
      .interspersed, .operator, usage: "interspersed V", summary: "emits V between each two elements",
      parameters: [separator],
      example: "from 1 2 3 | interspersed 0", implementation: "interspersed(with:)"
    ) { typing in
      guard let type = typing.type(of: separator) else { return nil }
      guard let joined = ValueType.join(typing.input, type), joined == typing.input || typing.input == .never else {
        typing.error("the separator is '\(type)' but the elements are '\(typing.input)'", at: separator)
        return nil
      }
      return typing.input == .never ? type : typing.input
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .interspersed(separator: try arguments.constant(separator))
    }
  }
}
