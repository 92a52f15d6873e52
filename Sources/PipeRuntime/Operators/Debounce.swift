import PipeSema

extension Operators {
  /// `debounce`: emits an element once no newer one came for the interval.
  enum Debounce {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          // AA's debounce, shielded from a bug of 1.1.4: Workarounds/DebounceCancelledBeforeDemand.swift.
          ValueSequence(
            ShieldedDebounce(upstream: input.upstream, interval: interval, clock: input.clock))
        })
    }
  }
}
