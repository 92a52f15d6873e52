import PipeSession

extension Commands {
  /// `sleep INTERVAL`: waits on the session's clock (background jobs go on); Ctrl-C stops it.
  enum Sleep {
    static let entry = Command.duration(.sleep) { shell, interval in
      let stopped = "sleep: stopped (Ctrl-C)"
      guard case .virtual(let driver) = shell.engine.nextClock else {
        return await shell.engine.waitFor(stopped: stopped) { try? await Task.sleep(for: interval) }
      }
      // On the virtual clock the sleep is one more sleeper: the clock moves to its deadline, and
      // to every job's deadline before it, in order.
      await shell.engine.waitFor(on: driver, stopped: stopped) {
        try? await driver.sleep(until: driver.now.advanced(by: interval))
      }
    }.example("timer 1 | take 3 | print time: true &\nsleep 2\njobs")
  }
}
