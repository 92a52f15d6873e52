import PipeSyntax

extension Catalogue {
  /// `compactMap`: transforms each element, dropping nil results.
  public enum CompactMap: OperatorDefinition {
    public static let transform = Parameter.positional("transform", .closure, "an optional new element, from $0")

    public static let signature = OperatorSignature(
      .compactMap, .operator, usage: "compactMap { e }", summary: "transforms each element, dropping nil results",
      parameters: [transform],
      example: "from \"1\" \"x\" \"3\" | compactMap { int($0) }", implementation: "compactMap (standard library)"
    ) { typing in
      typing.closure(transform, [typing.input])?.type.unwrapped
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .compactMap(transform: try arguments.closure(transform))
    }
  }
}
