import PipeSession

extension Commands {
  /// `inspect N`: the job's node tree.
  enum Inspect {
    static let entry = Command.job(.inspect) { shell, id in
      guard let job = shell.engine.jobs.job(id) else {
        return shell.engine.commandFailed("inspect: no job \(id) (jobs lists them)", at: 0)
      }
      for line in Inspector.lines(job) { shell.console.line(line) }
    }.example("range 1 5 | map { $0 * 2 } | take 2 | drain\ninspect 1")
  }
}
