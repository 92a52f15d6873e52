import PipeSyntax

extension Catalogue {
  /// `filter`: passes on the elements for which the closure is true.
  public enum Filter: OperatorDefinition {
    public static let isIncluded = Parameter.positional("isIncluded", .closure, "a Bool, from $0")

    public static let signature = OperatorSignature(
      .filter, .operator, usage: "filter { e }", summary: "passes on the elements for which the closure is true",
      parameters: [isIncluded],
      example: "range 1 10 | filter { $0 % 3 == 0 }", implementation: "filter (standard library)",
      typing: Typing.predicate(isIncluded))

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .filter(isIncluded: try arguments.closure(isIncluded))
    }
  }
}
