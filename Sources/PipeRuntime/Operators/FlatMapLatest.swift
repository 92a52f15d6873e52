import PipeSema

extension Operators {
  /// `flatMapLatest { PIPELINE }`: a pipeline per element, each new element cancelling the last.
  enum FlatMapLatest {
    static func run(body: CheckedPipeline) -> Run {
      .node(
        build: { input in
          // pipesh's own, for AA 1.1.4's bugs: Workarounds/FlatMapLatestLosesFailures.swift.
          let body = ElementBody(body, input, supersedes: true)
          return ValueSequence(FlatMapLatestSequence(upstream: input.upstream) { body.sequence(for: $0) })
        })
    }
  }
}
