import PipeSyntax

extension Catalogue {
  /// `diagram`: prints the output as one marble line when the input ends (column N: tick N).
  public enum Diagram: OperatorDefinition {
    public static let tick = Parameter.labelled("tick", .duration, "the length of one column (default 1s)")

    public static let signature = OperatorSignature(
      .diagram, .sink, usage: "diagram [tick: D]",
      summary: "prints the output as one marble line when the input ends (column N: tick N)",
      parameters: [tick],
      example: "timer 1 | take 3 | diagram", implementation: "own sink", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .diagram(tick: try arguments.optionalInterval(tick))
    }
  }
}
