import PipeSyntax

extension Catalogue {
  /// `work`: waits INTERVAL for each element, then passes it on; the next one is asked for after.
  public enum Work: OperatorDefinition {
    public static let interval = Parameter.positional("interval", .duration, "how long each element's work takes")
    public static let cooperative = Parameter.labelled(
      "cooperative", .bool,
      "true (the default): a cancel ends the wait at once, and nothing is handed on; false: the wait ignores the cancel, runs to its end and hands the element on, then the work ends"
    )

    public static let signature = OperatorSignature(
      .work, .operator, usage: "work INTERVAL [cooperative: Bool]",
      summary:
        "for each element waits INTERVAL on the job's clock, then passes it on; asks for the next only then; cooperative: false ignores a cancel until its wait is over, then hands the element on (lint: ignored-cancellation)",
      parameters: [interval, cooperative],
      example: "from 1 2 3 | work 2 | print time: true",
      implementation:
        "map { try await clock.sleep(for:) } (one element at a time); cooperative: false, a wait the cancel does not reach (as Swift's await Task { try? await Task.sleep(for:) }.value)",
      typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .work(interval: try arguments.interval(interval), cooperative: try arguments.flag(cooperative, default: true))
    }
  }
}
