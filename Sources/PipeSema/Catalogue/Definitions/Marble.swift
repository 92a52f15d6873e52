import PipeSyntax

extension Catalogue {
  /// `marble`: emits a marble diagram's values as strings, one step per tick (default 1s).
  public enum Marble: OperatorDefinition {
    public static let diagram = Parameter.positional(
      "diagram", .string,
      "- a step, a or 'text' a value ('' in it: a quote), [ab] together, | finish, ^ fail, ; cancel")
    public static let tick = Parameter.labelled("tick", .duration, "the length of one step")

    /// One step of the diagram a second, unless `tick:` says otherwise.
    public static let defaultTick = Duration.seconds(1)

    public static let signature = OperatorSignature(
      .marble, .source, usage: "marble \"DIAGRAM\" [tick: D]",
      summary: "emits a marble diagram's values as strings, one step per tick (default 1s)",
      parameters: [diagram, tick],
      example: "marble \"ab-c|\" | diagram", implementation: "own (MarbleSequence), on the job's clock"
    ) { typing in
      // Worked out per element in `flatMap { marble $0 }`: parsed once its text is known.
      if typing.isDeferred(diagram) { return .string }
      // Parsed already: this is the check again, per element, of a `tick: $0` worked out.
      if case .marble = typing.argument(diagram) { return .string }
      guard case .value(.string(let text), _) = typing.argument(diagram) else {
        typing.error("DIAGRAM must be a string", at: diagram)
        return nil
      }
      switch MarbleDiagram.parse(text) {
      case .success(let parsed):
        typing.set(diagram, .marble(parsed))
        return .string
      case .failure(let problem):
        let base = typing.range(of: diagram).start + 1
        typing.report(
          Diagnostic(
            id: .badDiagram, message: "marble: \(problem.message)",
            range: SourceRange(base + problem.offset, base + problem.offset + problem.length), notes: [problem.note]),
          unnamed: problem.message)
        return nil
      }
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .marble(diagram: try arguments.diagram(diagram), tick: try arguments.interval(tick, default: defaultTick))
    }
  }
}
