import PipeSyntax

extension Catalogue {
  /// `flatMapLatest { PIPELINE }`: a pipeline per element, each new element cancelling the last.
  public enum FlatMapLatest: OperatorDefinition {
    public static let body = Parameter.positional(
      "body", .pipeline, "a pipeline; $0 in its arguments stands for the element")

    public static let signature = OperatorSignature(
      .flatMapLatest, .operator, usage: "flatMapLatest { PIPELINE }",
      summary:
        "runs the pipeline for each element ($0 in its arguments); a new element cancels the pipeline of the one before",
      parameters: [body],
      example: "timer 2.5 | take 2 | flatMapLatest { timer 1 | take ($0 + 3) } | print time: true",
      implementation:
        "own (swift-async-algorithms 1.1.4's flatMapLatest(_:), macOS 15 and iOS 18, loses errors and hangs)",
      typing: Typing.body)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .flatMapLatest(body: try arguments.body(body))
    }
  }
}
