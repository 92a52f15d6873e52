extension Commands {
  /// `stats`: what is alive now.
  enum Stats {
    static let entry = Command.bare("stats", summary: "counts live jobs, tasks and nodes") { shell in
      let jobs = shell.jobs
      shell.console.line(
        "jobs: \(jobs.running.count) running · tasks: \(jobs.liveTasks.load(ordering: .relaxed)) live · nodes: \(jobs.liveNodes) live"
      )
    }.example("timer 1 | drain &\nstats\ncancel all\nstats")
  }
}
