import PipeSyntax

extension Catalogue {
  /// `takeWhile`: passes on elements while the closure is true.
  public enum TakeWhile: OperatorDefinition {
    public static let predicate = Parameter.positional("predicate", .closure, "a Bool, from $0")

    public static let signature = OperatorSignature(
      .takeWhile, .operator, usage: "takeWhile { e }", summary: "passes on elements while the closure is true",
      parameters: [predicate],
      example: "range 1 10 | takeWhile { $0 < 4 }", implementation: "prefix(while:)",
      typing: Typing.predicate(predicate))

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .takeWhile(predicate: try arguments.closure(predicate))
    }
  }
}
