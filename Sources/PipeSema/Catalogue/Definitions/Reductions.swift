import PipeSyntax

extension Catalogue {
  /// `reductions`: emits each running result of combining $0 (the result so far) with $1 (the element).
  public enum Reductions: OperatorDefinition {
    public static let initial = Parameter.positional(
      "initial", .value, optional: true, "the first result; without it, the first element")
    public static let next = Parameter.positional("next", .closure, "the next result, from $0 and $1")

    public static let signature = OperatorSignature(
      .reductions, .operator, usage: "reductions [INIT] { e }  (alias scan)",
      summary: "emits each running result of combining $0 (the result so far) with $1 (the element)",
      parameters: [initial, next],
      example: "range 1 5 | reductions 0 { $0 + $1 }", implementation: "reductions(_:_:) / reductions(_:)",
      typing: Typing.accumulate(initial: initial, next: next))

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .reductions(initial: try arguments.optionalConstant(initial), next: try arguments.closure(next))
    }
  }
}
