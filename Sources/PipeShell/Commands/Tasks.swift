import PipeSession

extension Commands {
  /// `tasks [N…]`: the jobs' task trees; `tasks "F.trace"`: a saved trace's asking tasks.
  enum Tasks {
    static let entry = Command.taskJobs(.tasks) { shell, choice in
      switch choice {
      case .savedTrace(let path):
        // What a trace says of its asks needs no task hooks: every system reads it.
        guard let recording = shell.readTrace(path, command: "tasks") else { return }
        AttachSession.tasks(recording, shell, noTask: "no lane of \(path) was asked by a task it names")
      case .jobs(let ids, let everyTask):
        guard TaskView.available else { return shell.engine.commandFailed("tasks: " + TaskView.unavailable) }
        show(shell, ids, everyTask: everyTask)
      }
    }.example("merge(timer 1, timer 2) | take 3 | drain &\nsleep 1\ntasks 1\nwait\ntasks 1")

    static func show(_ shell: Shell, _ ids: [Int]?, everyTask: Bool) {
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
    }
  }
}
