import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `stdin`: emits the lines of standard input.
  enum Stdin {
    static func run() -> Run {
      .node(
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
}
