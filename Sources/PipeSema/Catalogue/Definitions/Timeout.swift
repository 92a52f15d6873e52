import PipeSyntax

extension Catalogue {
  /// `timeout`: fails the job when no element came for INTERVAL.
  public enum Timeout: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .duration, "the longest wait")

    public static let signature = OperatorSignature(
      .timeout, .operator, usage: "timeout INTERVAL", summary: "fails the job when no element came for INTERVAL",
      parameters: [interval], example: "never | timeout 2",
      implementation: "own (TimeoutSequence), on the job's clock", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .timeout(interval: try arguments.interval(interval))
    }
  }
}
