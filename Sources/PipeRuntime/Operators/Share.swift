import PipeSema

extension Operators {
  /// `share`: lets several consumers iterate one upstream; in a let fragment, every use sees the same elements.
  enum Share {
    static func run() -> Run {
      // AA's share, with a teardown that ends it: Workarounds/ShareTornDownWhileAsking.swift.
      .node(build: { input in ValueSequence(StoppableShare(upstream: input.upstream)) })
    }
  }
}
