import PipeSyntax

extension Catalogue {
  /// `flatMap { PIPELINE }`: a pipeline per element, one after another.
  public enum FlatMap: OperatorDefinition {
    public static let body = Parameter.positional(
      "body", .pipeline, "a pipeline; $0 in its arguments stands for the element")
    public static let concurrency = Parameter.labelled(
      "concurrency", .positiveCount, "run up to N pipelines at once (a task group), passing on elements as they come")

    public static let signature = OperatorSignature(
      .flatMap, .operator, usage: "flatMap { PIPELINE } [concurrency: N]",
      summary:
        "runs the pipeline for each element ($0 in its arguments), one after another or up to N at once, and passes on what they emit",
      parameters: [body, concurrency],
      example: "from 1 2 3 | flatMap { from $0 ($0 * 10) }",
      implementation: "flatMap (standard library); with concurrency: a task group (Combine's flatMap(maxPublishers:))"
    ) { typing in
      Typing.body(&typing)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .flatMap(body: try arguments.body(body), concurrency: try arguments.optionalInteger(concurrency))
    }
  }
}
