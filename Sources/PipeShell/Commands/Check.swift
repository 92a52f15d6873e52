import PipeSession

extension Commands {
  /// `check PIPELINE`: the element type after every stage, without running anything.
  enum Check {
    static let entry = Command.pipeline(.check) { shell, pipeline, _ in
      let rows = pipeline.stages.map { [$0.text, $0.outputType.description] }
      for line in Format.table(rows, gap: 3) { shell.console.line(line) }
    }.example("check from 1 2 | map { $0 * 1.5 } | chunks 2")
  }
}
