import PipeSema
import PipeSession

extension Commands {
  /// `cancel N…`, `cancel all`: cancels jobs and waits until every node of them has ended.
  struct Cancel: ShellCommand {
    static let signature = CommandSignature(
      "cancel", .jobs(all: true, missing: "name the jobs to cancel"), usage: "cancel N… | cancel all",
      summary: "cancels jobs")
    static let example = HelpExample("timer 1 | drain &\nsleep 2.5\ncancel 1\njobs")
    let ids: [Int]?

    static func check(_ reader: inout CommandReader) -> Self? { reader.jobsOrAll().map { Self(ids: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .cancel(ids) }

    func run(in shell: Shell) async {
      guard let ids else {
        let running = await shell.engine.cancelAllRunning()
        if shell.engine.interactive {
          shell.console.line("cancelled \(running) job\(running == 1 ? "" : "s")")
        }
        return
      }
      for (index, id) in ids.enumerated() {
        switch await shell.engine.cancel(job: id) {
        case .noJob:
          shell.engine.commandFailed("cancel: no job \(id) (jobs lists them)", at: index)
        case .ended(let text, let notice):
          // Nothing to cancel: said, with what the job was (a `trace` or `draw` takes a number too).
          shell.console.line("cancel: job \(id) (\(text)) has already ended: \(notice); nothing to cancel", to: .error)
        case .cancelled:
          break
        }
      }
    }
  }
}
