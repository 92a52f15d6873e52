import PipeSyntax

extension Catalogue {
  /// `reduce`: combines $0 (the result so far) with each element $1 and prints the result.
  public enum Reduce: OperatorDefinition {
    public static let initial = Parameter.positional("initial", .value, "the first result")
    public static let next = Parameter.positional("next", .closure, "the next result, from $0 and $1")

    public static let signature = OperatorSignature(
      .reduce, .sink, usage: "reduce INIT { e }",
      summary: "combines $0 (the result so far) with each element $1 and prints the result",
      parameters: [initial, next],
      example: "range 1 5 | reduce 1 { $0 * $1 }", implementation: "own sink",
      typing: Typing.accumulate(initial: initial, next: next))

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .reduce(initial: try arguments.constant(initial), next: try arguments.closure(next))
    }
  }
}
