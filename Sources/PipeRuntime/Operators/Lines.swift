import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `lines`: emits the lines of a text file.
  enum Lines {
    static let entry = Operator(
      OperatorSignature(
        "lines", .source, usage: "lines \"FILE\"", summary: "emits the lines of a text file",
        parameters: [.positional("file", .string, "the path of the file")],
        example: "lines \"notes.txt\" | count", exampleRuns: false,
        implementation: "own (LinesSequence), real file reads"
      ) { typing in
        .string
      },
      build: { input in
        ValueSequence(
          LinesSequence(path: try input.string("file"), stage: input.stage.text, driver: input.clock.driver))
      })
  }
}
