import PipeSyntax

extension Catalogue {
  /// `dropWhile`: drops elements while the closure is true.
  public enum DropWhile: OperatorDefinition {
    public static let predicate = Parameter.positional("predicate", .closure, "a Bool, from $0")

    public static let signature = OperatorSignature(
      .dropWhile, .operator, usage: "dropWhile { e }", summary: "drops elements while the closure is true",
      parameters: [predicate],
      example: "range 1 6 | dropWhile { $0 < 4 }", implementation: "drop(while:)",
      typing: Typing.predicate(predicate))

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .dropWhile(predicate: try arguments.closure(predicate))
    }
  }
}
