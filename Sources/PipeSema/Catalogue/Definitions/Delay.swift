import PipeSyntax

extension Catalogue {
  /// `delay`: passes each element on INTERVAL after it arrived.
  public enum Delay: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .duration, "the delay")

    public static let signature = OperatorSignature(
      .delay, .operator, usage: "delay INTERVAL", summary: "passes each element on INTERVAL after it arrived",
      parameters: [interval], example: "from 1 2 | delay 1 | print time: true",
      implementation: "own (DelaySequence), on the job's clock", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .delay(interval: try arguments.interval(interval))
    }
  }
}
