import PipeSyntax

extension Catalogue {
  /// `marble`: emits a marble diagram's values as strings, one step per tick (default 1s), in
  /// swift-async-algorithms' notation or RxJS's (`dialect: rxjs`, one frame per tick, default 1ms).
  public enum Marble: OperatorDefinition {
    public static let diagram = Parameter.positional(
      "diagram", .string,
      "- a step, a or 'text' a value ('foo''bar' two values, as AA reads them), [ab] together, | finish, ^ fail, "
        + "; cancel; "
        + "with dialect: rxjs, - a frame, a a value, (ab) together, | complete, # error, ! unsubscribed, "
        + "^ the subscription point, 9ms (or 1s, 1m, with a space after it) time passing")
    public static let tick = Parameter.labelled(
      "tick", .duration, "the length of one step (1s unless given), or of one RxJS frame (1ms unless given)")
    public static let dialect = Parameter.labelled(
      "dialect", .name,
      "aa (swift-async-algorithms' notation, the default) or rxjs (RxJS's marble syntax: help marbles)")

    /// One step of the diagram a second, unless `tick:` says otherwise.
    public static let defaultTick = Duration.seconds(1)

    /// The tick when none is given: a second a step in pipesh's notation, RxJS's run-mode frame
    /// (1ms) in RxJS's.
    public static func defaultTick(_ dialect: MarbleDialect) -> Duration {
      switch dialect {
      case .aa: defaultTick
      case .rxjs: MarbleDiagram.rxjsFrame
      }
    }

    static let usage = "marble \"DIAGRAM\" [tick: D] [dialect: aa|rxjs]"

    public static let signature = OperatorSignature(
      .marble, .source, usage: usage,
      summary:
        "emits a marble diagram's values as strings, one step per tick (default 1s); dialect: rxjs reads RxJS's marble syntax, one frame per tick (default 1ms), its first character at the start",
      parameters: [diagram, tick, dialect],
      example: "marble \"ab-c|\" | diagram", implementation: "own (MarbleSequence), on the job's clock"
    ) { typing in
      var chosen = MarbleDialect.aa
      if typing.has(dialect) {
        guard let word = typing.name(dialect), let found = MarbleDialect(rawValue: word) else {
          let word = typing.name(dialect) ?? ""
          typing.report(
            SemaMessages.wrongArgument(
              "marble", "unknown dialect '\(word)'; use aa or rxjs", typing.range(of: dialect),
              usage: usage
            ).adding(note: NameSuggester.note(for: word, in: MarbleDialect.words)),
            unnamed: "unknown dialect '\(word)'; use aa or rxjs")
          return nil
        }
        chosen = found
      }
      // Worked out per element in `flatMap { marble $0 }`: parsed once its text is known.
      if typing.isDeferred(diagram) { return .string }
      // Parsed already: this is the check again, per element, of a `tick: $0` worked out.
      if case .marble = typing.argument(diagram) { return .string }
      guard case .value(.string(let text), _) = typing.argument(diagram) else {
        typing.error("DIAGRAM must be a string", at: diagram)
        return nil
      }
      // RxJS's time progressions are counted in frames of the tick: unknown while it is worked
      // out per element.
      var frame: Duration? = defaultTick(chosen)
      if typing.has(tick) {
        frame = if case .duration(let duration) = typing.argument(tick) { duration } else { nil }
      }
      switch MarbleDiagram.parse(text, dialect: chosen, frame: frame) {
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
      let chosen = try arguments.word(dialect, default: MarbleDialect.aa)
      return .marble(
        diagram: try arguments.diagram(diagram), tick: try arguments.interval(tick, default: defaultTick(chosen)),
        dialect: chosen)
    }
  }
}
