import PipeSyntax

extension Catalogue {
  /// `take`: passes on the first N elements, then finishes.
  public enum Take: OperatorDefinition {
    public static let count = Parameter.positional("count", .count, "how many")

    public static let signature = OperatorSignature(
      .take, .operator, usage: "take N", summary: "passes on the first N elements, then finishes",
      parameters: [count], example: "timer 1 | take 3",
      implementation: "prefix(_:)", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .take(count: try arguments.integer(count))
    }
  }
}
