import PipeSyntax

extension Catalogue {
  /// `work`: waits INTERVAL for each element, then passes it on; the next one is asked for after.
  public enum Work: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .duration, "how long each element's work takes")

    public static let signature = OperatorSignature(
      .work, .operator, usage: "work INTERVAL",
      summary: "for each element waits INTERVAL on the job's clock, then passes it on; asks for the next only then",
      parameters: [interval],
      example: "from 1 2 3 | work 2 | print time: true",
      implementation: "map { try await clock.sleep(for:) } (one element at a time)", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .work(interval: try arguments.interval(interval))
    }
  }
}
