import PipeSession

extension Commands {
  /// `stats`: what is alive now.
  enum Stats {
    static let entry = Command.bare(.stats) { shell in
      let jobs = shell.engine.jobs
      shell.console.line(
        "jobs: \(jobs.running.count) running · tasks: \(jobs.liveTasks.load(ordering: .relaxed)) live · \(shell.liveNodesText)"
      )
    }.example("timer 1 | drain &\nstats\ncancel all\nstats")
  }
}

extension Shell {
  /// The live nodes, as `stats` and `--stats` say them: those of jobs and those of the hot parts of
  /// `share` fragments, which the session keeps for later consumers, named.
  public var liveNodesText: String {
    let shared = engine.session.liveSharedNodes
    let total = engine.jobs.liveNodes + shared.reduce(0) { $0 + $1.nodes }
    guard !shared.isEmpty else { return "nodes: \(total) live" }
    let named = shared.map { "\($0.nodes) in share fragment '\($0.fragment)'" }.joined(separator: ", ")
    return "nodes: \(total) live (\(named), kept for later consumers)"
  }
}
