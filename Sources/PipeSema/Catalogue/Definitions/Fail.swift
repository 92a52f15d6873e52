import PipeSyntax

extension Catalogue {
  /// `fail`: fails at once with the message.
  public enum Fail: OperatorDefinition {
    public static let message = Parameter.positional("message", .string, "the error message")

    public static let signature = OperatorSignature(
      .fail, .source, usage: "fail \"MSG\"", summary: "fails at once with the message",
      parameters: [message], example: "fail \"boom\"",
      implementation: "own (FailSequence)"
    ) { typing in
      .never
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .fail(message: try arguments.text(message))
    }
  }
}
