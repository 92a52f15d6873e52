import PipeSession

extension Commands {
  /// `cancel N…`, `cancel all`: cancels jobs and waits until every node of them has ended.
  enum Cancel {
    static let entry = Command.jobs(.cancel) { shell, ids in
      guard let ids else {
        let running = shell.engine.jobs.running
        for job in running { job.cancel() }
        await shell.engine.waitForAll(running)
        if shell.engine.interactive {
          shell.console.line("cancelled \(running.count) job\(running.count == 1 ? "" : "s")")
        }
        return
      }
      for (index, id) in ids.enumerated() {
        guard let job = shell.engine.jobs.job(id) else {
          shell.engine.commandFailed("cancel: no job \(id) (jobs lists them)", at: index)
          continue
        }
        guard job.state == .running else {
          // Nothing to cancel: said, with what the job was (a `trace` or `draw` takes a number too).
          shell.console.line(
            "cancel: job \(id) (\(job.text)) has already ended: \(Engine.endNotice(job)); nothing to cancel", to: .error
          )
          continue
        }
        job.cancel()
        await shell.engine.waitFor { await job.wait() }
      }
    }.example("timer 1 | drain &\nsleep 2.5\ncancel 1\njobs")
  }
}
