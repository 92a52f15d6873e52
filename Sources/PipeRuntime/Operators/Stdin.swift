import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `stdin`: emits the lines of standard input.
  enum Stdin {
    static let entry = Operator(
      OperatorSignature(
        "stdin", .source, usage: "stdin", summary: "emits the lines of standard input",
        example: "stdin | map { $0.count }", exampleRuns: false, implementation: "own (LinesSequence on fd 0)"
      ) { typing in
        .string
      },
      build: { input in
        if input.context.session.terminalInputIsTheEditors.load(ordering: .relaxed) {
          throw PipelineError(
            stage: input.stage.text,
            message: "standard input is the terminal the shell reads; run 'pipesh < FILE' or use lines \"FILE\"")
        }
        return ValueSequence(LinesSequence(path: nil, stage: input.stage.text, driver: input.clock.driver))
      })
  }
}
