import PipeSema
import PipeSession
import PipeViews

extension Commands {
  /// `inspect N`: the job's node tree.
  struct Inspect: ShellCommand {
    static let signature = CommandSignature(
      "inspect", .job, usage: "inspect N",
      summary: "draws the job's node tree with states and counts, and under each node the tasks it started")
    static let example = HelpExample("range 1 5 | map { $0 * 2 } | take 2 | drain\ninspect 1")
    let id: Int

    static func check(_ reader: inout CommandReader) -> Self? { reader.job().map { Self(id: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      guard let job = shell.engine.snapshot(ofJob: id) else {
        return shell.engine.commandFailed("inspect: no job \(id) (jobs lists them)", at: 0)
      }
      for line in Inspector.lines(job) { shell.console.line(line) }
    }
  }
}
