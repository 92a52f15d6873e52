import PipeRuntime
import PipeSession

extension Commands {
  /// `wait [N…]`: waits for jobs to end; Ctrl-C stops the waiting, not the jobs.
  enum Wait {
    static let entry = Command.jobs(.wait) { shell, ids in
      var waited: [Job] = []
      for (index, id) in (ids ?? []).enumerated() {
        guard let job = shell.engine.jobs.job(id) else {
          shell.engine.commandFailed("wait: no job \(id) (jobs lists them)", at: index)
          continue
        }
        waited.append(job)
      }
      let jobs = ids?.isEmpty ?? true ? shell.engine.jobs.running : waited
      await shell.engine.waitForAll(
        jobs, deadlock: "wait: deadlock",
        stopped: "wait: stopped (Ctrl-C); the job\(jobs.count == 1 ? "" : "s") go\(jobs.count == 1 ? "es" : "") on")
    }.example("timer 1 | take 2 | print time: true &\nwait 1\nfrom \"after the wait\"")
  }
}
