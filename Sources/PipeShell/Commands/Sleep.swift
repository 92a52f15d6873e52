import PipeSema
import PipeSession
import VirtualTime

extension Commands {
  /// `sleep INTERVAL`: waits on the session's clock (background jobs go on); Ctrl-C stops it.
  struct Sleep: ShellCommand {
    static let signature = CommandSignature(
      "sleep", .duration, usage: "sleep INTERVAL",
      summary: "waits INTERVAL on the session's clock while background jobs go on; Ctrl-C stops it")
    static let example = HelpExample("timer 1 | take 3 | print time: true &\nsleep 2\njobs")
    let interval: Duration

    static func check(_ reader: inout CommandReader) -> Self? { reader.duration().map { Self(interval: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .sleep(interval) }

    func run(in shell: Shell) async {
      let stopped = "sleep: stopped (Ctrl-C)"
      guard let driver = shell.engine.sessionDriver else {
        return await shell.engine.waitFor(stopped: stopped) { try? await Task.sleep(for: interval) }
      }
      // On the virtual clock the sleep is one more sleeper: the clock moves to its deadline, and
      // to every job's deadline before it, in order.
      await shell.engine.waitFor(on: driver, stopped: stopped) {
        try? await driver.sleep(until: driver.now.advanced(by: interval))
      }
    }
  }
}
