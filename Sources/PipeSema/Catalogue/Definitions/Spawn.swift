import PipeSyntax

extension Catalogue {
  /// `spawn { PIPELINE }`: staged on purpose, a mistake to learn from: for each element, the
  /// pipeline runs in an unstructured task (`Task { }`) that is no child of the job, which nobody
  /// awaits or cancels, so it outlives the job.
  public enum Spawn: OperatorDefinition {
    public static let body = Parameter.positional(
      "body", .pipeline, "a pipeline; $0 in its arguments stands for the element")

    public static let signature = OperatorSignature(
      .spawn, .operator, usage: "spawn { PIPELINE }",
      summary:
        "passes each element on, and starts the pipeline for it ($0 in its arguments) in an unstructured task that is no child of the job: it outlives the job, and cancelling the job does not reach it (a mistake staged on purpose: stats and lint name the task left behind)",
      parameters: [body],
      example: "from 1 2 | spawn { timer 1 | take 2 | map { $0 * 10 } | tap \"left behind\" } | print\nstats\nsleep 3",
      implementation: "own (Task { for try await _ in pipeline { } } per element)",
      typing: Typing.passesOnBesideBody)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .spawn(body: try arguments.body(body))
    }
  }
}
