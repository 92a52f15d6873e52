import PipeSema
import PipeSession

extension Commands {
  /// `stats`: what is alive now.
  struct Stats: ShellCommand {
    static let signature = CommandSignature(
      "stats", .bare,
      summary:
        "counts live jobs, tasks (every task of every job, its own and its operators', as the Swift runtime reported them; those that outlive their job are named) and nodes"
    )
    static let example = HelpExample("timer 1 | drain &\nstats\ncancel all\nstats")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      shell.console.line(
        "jobs: \(shell.engine.runningJobIDs.count) running · \(shell.liveTasksText) · \(shell.liveNodesText)"
      )
    }
  }
}

extension Shell {
  /// The live tasks, as `stats` and `--stats` say them (`Engine.liveTasksText`).
  public var liveTasksText: String { engine.liveTasksText }

  /// The live nodes, as `stats` and `--stats` say them (`Engine.liveNodesText`).
  public var liveNodesText: String { engine.liveNodesText }
}
