import AsyncAlgorithms
import PipeSema
import PipeSyntax

extension Operators {
  /// `marble`: emits a marble diagram's values as strings, one step per tick (default 1s).
  enum Marble {
    static let entry = Operator(
      OperatorSignature(
        "marble", .source, usage: "marble \"DIAGRAM\" [tick: D]",
        summary: "emits a marble diagram's values as strings, one step per tick (default 1s)",
        parameters: [
          .positional(
            "diagram", .string,
            "- a step, a or 'text' a value ('' in it: a quote), [ab] together, | finish, ^ fail, ; cancel"),
          .labelled("tick", .duration, "the length of one step"),
        ],
        example: "marble \"ab-c|\" | diagram", implementation: "own (MarbleSequence), on the job's clock"
      ) { typing in
        // Worked out per element in `flatMap { marble $0 }`: parsed once its text is known.
        if typing.isDeferred("diagram") { return .string }
        // Parsed already: this is the check again, per element, of a `tick: $0` worked out.
        if case .marble = typing.argument("diagram") { return .string }
        guard case .value(.string(let text), _) = typing.argument("diagram") else {
          typing.error("DIAGRAM must be a string", at: "diagram")
          return nil
        }
        switch MarbleDiagram.parse(text) {
        case .success(let diagram):
          typing.set("diagram", .marble(diagram))
          return .string
        case .failure(let problem):
          let base = typing.range(of: "diagram").start + 1
          typing.report(
            Diagnostic(
              id: "bad-diagram", message: "marble: \(problem.message)",
              range: SourceRange(base + problem.offset, base + problem.offset + problem.length), notes: [problem.note]))
          return nil
        }
      },
      build: { input in
        ValueSequence(
          MarbleSequence(
            diagram: try input.marble("diagram"), tick: input.optionalDuration("tick") ?? .seconds(1),
            clock: input.clock, stage: input.stage.text))
      })
  }
}

/// `marble "DIAGRAM"`: the diagram's events, one step per tick on the job's clock.
struct MarbleSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let diagram: MarbleDiagram
  let tick: Duration
  let clock: PipeClock
  let stage: String

  func makeAsyncIterator() -> Iterator {
    Iterator(
      events: diagram.events.flatMap { step in step.events.map { (step.step, $0) } }, tick: tick, clock: clock,
      start: clock.now, stage: stage)
  }

  struct Iterator: AsyncIteratorProtocol {
    let events: [(Int, MarbleDiagram.Event)]
    let tick: Duration
    let clock: PipeClock
    let start: PipeInstant
    let stage: String
    var index = 0

    mutating func next() async throws -> Value? {
      guard index < events.count else { return nil }
      let (step, event) = events[index]
      index += 1
      do {
        try await clock.sleep(until: start.advanced(by: tick * step), tolerance: nil)
      } catch {
        index = events.count
        return nil
      }
      switch event {
      case .value(let text): return .string(text)
      case .finish, .cancel:
        index = events.count
        return nil
      case .fail:
        index = events.count
        throw PipelineError(stage: stage, message: "failed (^ in the diagram)")
      }
    }
  }
}
