import PipeSema

extension Operators {
  /// `work`: waits INTERVAL for each element, then passes it on; the next one is asked for after.
  enum Work {
    static let entry = Operator(
      OperatorSignature(
        "work", .operator, usage: "work INTERVAL",
        summary: "for each element waits INTERVAL on the job's clock, then passes it on; asks for the next only then",
        parameters: [.positional("interval", .duration, "how long each element's work takes")],
        example: "from 1 2 3 | work 2 | print time: true",
        implementation: "map { try await clock.sleep(for:) } (one element at a time)", typing: Typing.same),
      build: { input in
        let clock = input.clock
        let interval = try input.duration("interval")
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
