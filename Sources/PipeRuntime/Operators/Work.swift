import PipeSema

extension Operators {
  /// `work`: waits INTERVAL for each element, then passes it on; the next one is asked for after.
  enum Work {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          let clock = input.clock
          let interval = interval
          // The stdlib's async map awaits its transform before asking its upstream again: the
          // `for await command in queue { await handle(command) }` loop, back pressure included.
          return ValueSequence(
            input.upstream.map { value in
              try await clock.sleep(for: interval)
              return value
            })
        })
    }
  }
}
