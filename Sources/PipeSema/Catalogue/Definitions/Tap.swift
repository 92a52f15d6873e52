import PipeSyntax

extension Catalogue {
  /// `tap`: prints 'LABEL: value', 'LABEL: finished', 'LABEL: cancelled'… and passes everything on.
  public enum Tap: OperatorDefinition {
    public static let label = Parameter.positional("label", .string, "the label")
    public static let time = Parameter.labelled("time", .bool, "prefix the time on the session's clock, as +1.500s")

    public static let signature = OperatorSignature(
      .tap, .operator, usage: "tap \"LABEL\" [time: Bool]",
      summary: "prints 'LABEL: value', 'LABEL: finished', 'LABEL: cancelled'… and passes everything on",
      parameters: [label, time], example: "from 1 2 | tap \"seen\" | drain",
      implementation: "own (TapSequence)", typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .tap(label: try arguments.text(label), time: try arguments.flag(time, default: false))
    }
  }
}
