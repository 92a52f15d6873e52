import PipeSyntax

extension Catalogue {
  /// `drop`: drops the first N elements, passes on the rest.
  public enum Drop: OperatorDefinition {
    public static let count = Parameter.positional("count", .count, "how many")

    public static let signature = OperatorSignature(
      .drop, .operator, usage: "drop N", summary: "drops the first N elements, passes on the rest",
      parameters: [count], example: "from 1 2 3 4 | drop 2",
      implementation: "dropFirst(_:)", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .drop(count: try arguments.integer(count))
    }
  }
}
