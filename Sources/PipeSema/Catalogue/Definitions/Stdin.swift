import PipeSyntax

extension Catalogue {
  /// `stdin`: emits the lines of standard input.
  public enum Stdin: OperatorDefinition {

    public static let signature = OperatorSignature(
      .stdin, .source, usage: "stdin", summary: "emits the lines of standard input",
      example: "stdin | map { $0.count }", exampleRuns: false, implementation: "own (LinesSequence on fd 0)"
    ) { typing in
      .string
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .stdin
    }
  }
}
