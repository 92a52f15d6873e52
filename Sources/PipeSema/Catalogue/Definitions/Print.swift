import PipeSyntax

extension Catalogue {
  /// `print`: prints every element (added when a pipeline ends without a sink).
  public enum Print: OperatorDefinition {
    public static let label = Parameter.labelled("label", .string, "a prefix, printed as 'label: value'")
    public static let time = Parameter.labelled("time", .bool, "prefix the time on the session's clock, as +1.500s")

    public static let signature = OperatorSignature(
      .print, .sink, usage: "print [label: S] [time: Bool]",
      summary: "prints every element (added when a pipeline ends without a sink)",
      parameters: [label, time],
      example: "timer 0.5 | take 2 | print time: true", implementation: "own sink", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .print(label: try arguments.optionalText(label), time: try arguments.flag(time, default: false))
    }
  }
}
