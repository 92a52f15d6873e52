import PipeSyntax

extension Catalogue {
  /// `throttle`: emits at most one element per interval: the latest (default) or the first of each window.
  public enum Throttle: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .durationOrZero, "the window")
    public static let latest = Parameter.labelled(
      "latest", .bool, "true: the latest element of a window; false: the first")

    public static let signature = OperatorSignature(
      .throttle, .operator, usage: "throttle INTERVAL [latest: Bool]",
      summary: "emits at most one element per interval: the latest (default) or the first of each window",
      parameters: [interval, latest],
      example: "timer 1 | take 10 | throttle 3", implementation: "_throttle(for:clock:latest:)", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .throttle(interval: try arguments.interval(interval), latest: try arguments.flag(latest, default: true))
    }
  }
}
