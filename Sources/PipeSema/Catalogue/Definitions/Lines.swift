import PipeSyntax

extension Catalogue {
  /// `lines`: emits the lines of a text file.
  public enum Lines: OperatorDefinition {
    public static let file = Parameter.positional("file", .string, "the path of the file")

    public static let signature = OperatorSignature(
      .lines, .source, usage: "lines \"FILE\"", summary: "emits the lines of a text file",
      parameters: [file],
      example: "lines \"notes.txt\" | count", exampleRuns: false,
      implementation: "own (LinesSequence), real file reads"
    ) { typing in
      .string
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .lines(file: try arguments.text(file))
    }
  }
}
