import PipeSyntax

extension Catalogue {
  /// `chunked`: emits the elements of each interval as an array.
  public enum Chunked: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .duration, "the length of a chunk")

    public static let signature = OperatorSignature(
      .chunked, .operator, usage: "chunked INTERVAL", summary: "emits the elements of each interval as an array",
      parameters: [interval],
      example: "timer 1 | take 7 | chunked 3", implementation: "chunked(by:) with a timer"
    ) { typing in
      .array(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .chunked(interval: try arguments.interval(interval))
    }
  }
}
