import PipeSyntax

extension Catalogue {
  /// `channel`: emits what 'send NAME …' pushes; several consumers split the values between them.
  public enum Channel: OperatorDefinition {
    public static let name = Parameter.positional("name", .name, "the channel's name")
    public static let of = Parameter.labelled("of", .typeName, "the element type, where no send or into tells it")
    public static let throwing = Parameter.positional(
      "throws", .name, optional: true,
      "an AsyncThrowingChannel from the start, so that 'fail NAME \"…\"' can end it later (at the prompt)")

    public static let signature = OperatorSignature(
      .channel, .source, usage: "channel NAME [of: TYPE] [throws]",
      summary: "emits what 'send NAME …' pushes; several consumers split the values between them",
      parameters: [name, of, throwing],
      example: "channel jobs of: Int | take 2 | print &\nsend jobs 1 2\nwait",
      implementation:
        "AsyncChannel; AsyncThrowingChannel when declared throws or some statement fails it (fail NAME \"…\")",
      channel: .receiving(name: name, of: of, throwing: throwing)
    ) { typing in
      nil
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .channel(name: try arguments.word(name))
    }
  }
}
