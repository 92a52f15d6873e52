import PipeSession

extension Commands {
  /// `tasks [N…]`: the jobs' task trees.
  enum Tasks {
    static let entry = Command.taskJobs(.tasks) { shell, ids, everyTask in
      let jobs = shell.engine.jobs
      // `tasks` alone (no number) shows every running job.
      let chosen = ids.map { Array(Set($0)).sorted().compactMap(jobs.job) } ?? jobs.running
      if let ids, let index = ids.firstIndex(where: { jobs.job($0) == nil }) {
        return shell.engine.commandFailed("tasks: no job \(ids[index]) (jobs lists them)", at: index)
      }
      if chosen.isEmpty { return shell.console.line("no running jobs (tasks N shows a job that ended)") }
      for job in chosen {
        for line in TaskView.lines(job, everyTask: everyTask) { shell.console.line(line) }
      }
    }.example("merge(timer 1, timer 2) | take 3 | drain &\nsleep 1\ntasks 1\nwait\ntasks 1")
  }
}
