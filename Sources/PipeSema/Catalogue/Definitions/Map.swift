import PipeSyntax

extension Catalogue {
  /// `map`: transforms each element.
  public enum Map: OperatorDefinition {
    public static let transform = Parameter.positional("transform", .closure, "the new element, from $0")

    public static let signature = OperatorSignature(
      .map, .operator, usage: "map { e }", summary: "transforms each element",
      parameters: [transform],
      example: "from 1 2 3 | map { $0 * 10 }", implementation: "map (standard library)"
    ) { typing in
      typing.closure(transform, [typing.input])?.type
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .map(transform: try arguments.closure(transform))
    }
  }
}
