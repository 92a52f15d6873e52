import PipeSema

extension Operators {
  /// `flatMap { PIPELINE }`: a pipeline per element, one after another.
  enum FlatMap {
    static let entry = Operator(
      OperatorSignature(
        "flatMap", .operator, usage: "flatMap { PIPELINE }",
        summary:
          "runs the pipeline for each element ($0 in its arguments), one after another, and passes on what they emit",
        parameters: [.positional("body", .pipeline, "a pipeline; $0 in its arguments stands for the element")],
        example: "from 1 2 3 | flatMap { from $0 ($0 * 10) }", implementation: "flatMap (standard library)",
        typing: Typing.body),
      build: { input in
        let body = try ElementBody(input, supersedes: false)
        // The standard library's flatMap iterates each element's sequence to its end before
        // asking for the next element.
        return ValueSequence(input.upstream.flatMap { element in body.sequence(for: element) })
      })
  }
}
