import PipeSyntax

extension Catalogue {
  /// `timer`: emits 0, 1, 2, … one per interval, the first after one interval.
  public enum Timer: OperatorDefinition {
    public static let interval = Parameter.positional(
      "interval", .duration, "the time between ticks: 250ms, 1.5s, or seconds")

    public static let signature = OperatorSignature(
      .timer, .source, usage: "timer INTERVAL",
      summary: "emits 0, 1, 2, … one per interval, the first after one interval",
      parameters: [interval],
      example: "timer 1 | take 3", implementation: "AsyncTimerSequence on the job's clock"
    ) { typing in
      .int
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .timer(interval: try arguments.interval(interval))
    }
  }
}
