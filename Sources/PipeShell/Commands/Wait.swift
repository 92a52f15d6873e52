import PipeSema
import PipeSession

extension Commands {
  /// `wait [N…]`: waits for jobs to end; Ctrl-C stops the waiting, not the jobs.
  struct Wait: ShellCommand {
    static let signature = CommandSignature(
      "wait", .jobs(all: false, missing: nil), usage: "wait [N…]",
      summary: "waits for jobs (all running ones when no N); Ctrl-C stops the waiting")
    static let example = HelpExample("timer 1 | take 2 | print time: true &\nwait 1\nfrom \"after the wait\"")
    let ids: [Int]

    static func check(_ reader: inout CommandReader) -> Self? { reader.jobs().map { Self(ids: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .wait(ids) }

    func run(in shell: Shell) async {
      var known: [Int] = []
      for (index, id) in ids.enumerated() {
        guard shell.engine.hasJob(id) else {
          shell.engine.commandFailed("wait: no job \(id) (jobs lists them)", at: index)
          continue
        }
        known.append(id)
      }
      let jobs = ids.isEmpty ? shell.engine.runningJobIDs : known
      await shell.engine.waitForAll(
        ids: jobs, deadlock: "wait: deadlock",
        stopped: "wait: stopped (Ctrl-C); the job\(jobs.count == 1 ? "" : "s") go\(jobs.count == 1 ? "es" : "") on")
    }
  }
}
