import PipeSema

extension Operators {
  /// `flatMap { PIPELINE } [concurrency: N]`: a pipeline per element, one after another, or up
  /// to N at once.
  enum FlatMap {
    static func run(body: CheckedPipeline, concurrency: Int?) -> Run {
      .node(
        build: { input in
          let body = ElementBody(body, input, supersedes: false)
          if let concurrency {
            return ValueSequence(
              ConcurrentFlatMapSequence(upstream: input.upstream, limit: concurrency) { body.sequence(for: $0) })
          }
          // The standard library's flatMap iterates each element's sequence to its end before
          // asking for the next element.
          return ValueSequence(input.upstream.flatMap { element in body.sequence(for: element) })
        })
    }
  }
}
