import PipeSema

extension Operators {
  /// `flatMap { PIPELINE }`: a pipeline per element, one after another.
  enum FlatMap {
    static func run(body: CheckedPipeline) -> Run {
      .node(
        build: { input in
          let body = ElementBody(body, input, supersedes: false)
          // The standard library's flatMap iterates each element's sequence to its end before
          // asking for the next element.
          return ValueSequence(input.upstream.flatMap { element in body.sequence(for: element) })
        })
    }
  }
}
