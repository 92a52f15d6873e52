import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `lines`: emits the lines of a text file.
  enum Lines {
    static func run(file: String) -> Run {
      .node(
        build: { input in
          ValueSequence(
            LinesSequence(path: file, stage: input.stage.text, driver: input.clock.driver))
        })
    }
  }
}
