import PipeSyntax

extension Catalogue {
  /// `subject`: a current value; every consumer gets it first, then each new one ('send' sets it).
  public enum Subject: OperatorDefinition {
    public static let name = Parameter.positional("name", .name, "the subject's name")
    public static let initial = Parameter.labelled("initial", .value, "the value it holds before any send")

    public static let signature = OperatorSignature(
      .subject, .source, usage: "subject NAME initial: V",
      summary:
        "a current value: every consumer gets it first, then each new one that 'send NAME V' sets (pipesh's own)",
      parameters: [name, initial],
      example:
        "subject user initial: \"guest\" | print label: \"A\" &\nsleep 1\nsend user \"Phil\"\n"
        + "subject user | print label: \"B\" &\nsleep 1\nclose user\nwait",
      implementation:
        "pipesh's own (AsyncAlgorithms has none): CurrentValueSubject's .values, an AsyncStream per consumer keeping the newest",
      channel: .subject(name: name, initial: initial)
    ) { typing in
      nil
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .subject(name: try arguments.word(name), initial: try arguments.value(initial))
    }
  }
}
