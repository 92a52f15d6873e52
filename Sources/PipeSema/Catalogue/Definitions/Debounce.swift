import PipeSyntax

extension Catalogue {
  /// `debounce`: emits an element once no newer one came for the interval.
  public enum Debounce: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .durationOrZero, "the quiet time")

    public static let signature = OperatorSignature(
      .debounce, .operator, usage: "debounce INTERVAL",
      summary: "emits an element once no newer one came for the interval",
      parameters: [interval],
      example: "marble \"ab-c---d|\" | debounce 2", implementation: "debounce(for:clock:)", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .debounce(interval: try arguments.interval(interval))
    }
  }
}
