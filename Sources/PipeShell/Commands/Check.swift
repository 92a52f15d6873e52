import PipeSema
import PipeSession
import PipeViews

extension Commands {
  /// `check PIPELINE`: the element type after every stage, without running anything.
  struct Check: ShellCommand {
    static let signature = CommandSignature(
      "check", .pipeline(partial: true), usage: "check PIPELINE",
      summary: "type-checks a pipeline and shows the element type after every stage")
    static let example = HelpExample("check from 1 2 | map { $0 * 1.5 } | chunks 2")
    let pipeline: CheckedPipeline
    let options: CommandOptions

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.pipeline().map { Self(pipeline: $0.pipeline, options: $0.options) }
    }
    var reach: CommandReach { .readsPipeline(pipeline) }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      let rows = pipeline.stages.map { [$0.text, $0.outputType.description] }
      for line in Format.table(rows, gap: 3) { shell.console.line(line) }
    }
  }
}
