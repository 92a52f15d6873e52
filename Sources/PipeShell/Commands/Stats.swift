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
      let jobs = shell.engine.jobs
      shell.console.line(
        "jobs: \(jobs.running.count) running · \(shell.liveTasksText) · \(shell.liveNodesText)"
      )
    }
  }
}

extension Shell {
  /// The live tasks, as `stats` and `--stats` say them: every task of every job (its own, its
  /// operators'), as the runtime reported them; those that outlive their job are named.
  public var liveTasksText: String {
    guard TaskView.available else { return "tasks: not counted (\(TaskView.unavailable))" }
    let jobs = engine.jobs.all
    let total = jobs.reduce(0) { $0 + $1.context.tasks.live }
    var outliving: [String] = []
    for job in jobs {
      let tasks = job.context.tasks.outliving
      let spawned = tasks.filter { $0.lifetime == .spawned }.map { String($0.id) }
      if !spawned.isEmpty {
        let ended = job.state == .running ? "" : ", which ended"
        let numbers = (spawned.count == 1 ? "task " : "tasks ") + spawned.joined(separator: ", ")
        outliving.append("\(numbers) started by spawn in job \(job.id)\(ended)")
      }
      for task in tasks {
        if case .sharedFragment(let name) = task.lifetime {
          outliving.append("task \(task.id) in share fragment '\(name)'")
        }
      }
    }
    guard !outliving.isEmpty else { return "tasks: \(total) live" }
    return "tasks: \(total) live (\(outliving.joined(separator: ", ")))"
  }

  /// The live nodes, as `stats` and `--stats` say them: those of jobs and those of the hot parts of
  /// `share` fragments, which the session keeps for later consumers, named.
  public var liveNodesText: String {
    let shared = engine.session.liveSharedNodes
    let spawned = engine.jobs.all.compactMap { job -> String? in
      let count = job.context.outlivingNodes.value
      return count > 0 ? "\(count) in pipelines spawn started in job \(job.id)" : nil
    }
    let outliving = engine.jobs.all.reduce(0) { $0 + $1.context.outlivingNodes.value }
    let total = engine.jobs.liveNodes + outliving + shared.reduce(0) { $0 + $1.nodes }
    var named = spawned
    if !shared.isEmpty {
      named.append(
        shared.map { "\($0.nodes) in share fragment '\($0.fragment)'" }.joined(separator: ", ")
          + ", kept for later consumers")
    }
    guard !named.isEmpty else { return "nodes: \(total) live" }
    return "nodes: \(total) live (\(named.joined(separator: "; ")))"
  }
}
