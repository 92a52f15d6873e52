import PipeSema
import PipeSession
import PipeViews

extension Commands {
  /// `tasks [N…]`: the jobs' task trees; `tasks "F.trace"`: a saved trace's asking tasks.
  struct Tasks: ShellCommand {
    static let signature = CommandSignature(
      "tasks", .jobs(all: false, missing: nil), usage: "tasks [N…] [all] | tasks \"F.trace\"",
      summary:
        "the task tree of jobs (all running ones when no N): a row per task that ran for the job, its own and every task its operators started (swift-async-algorithms' merge, zip, debounce, buffer…; spawn's, pipesh's flatMap concurrency:, flatMapLatest and timeout), as the Swift runtime made, cancelled and ended them: id, kind (job, group child of its parent, unstructured), the task that made it, the node whose code made it, when it started, when it was cancelled and by what, when it ended; the tasks of pipesh's workarounds of swift-async-algorithms' bugs and its stops of an operator's input are folded into one counted line, which tasks N all shows row by row; tasks \"F.trace\" reads a probe's saved trace instead (recorder.write(toFile:) or pipesh attach --save wrote it; pipesh's own traces name no task on their asks): a row per task that asked a lane (numbered as the trace numbers them), the lanes it asked, those it waits on at the trace's end (its ask not answered), and its last ask's time"
    )
    static let example = HelpExample("merge(timer 1, timer 2) | take 3 | drain &\nsleep 1\ntasks 1\nwait\ntasks 1")

    /// What `tasks` shows: jobs' task trees, or a saved trace's asking tasks.
    enum Choice: Sendable {
      /// Job numbers (nil: the running jobs), and whether every task of pipesh's own is shown
      /// (`tasks N… all`).
      case jobs([Int]?, everyTask: Bool)
      /// `tasks "F.trace"`.
      case savedTrace(String)
    }
    let choice: Choice

    static func check(_ reader: inout CommandReader) -> Self? {
      if reader.startsWithString { return reader.savedTraceAlone().map { Self(choice: .savedTrace($0)) } }
      if reader.endsWithAll { return reader.jobsBeforeAll().map { Self(choice: .jobs($0, everyTask: true)) } }
      return reader.jobs().map { Self(choice: .jobs($0.isEmpty ? nil : $0, everyTask: false)) }
    }

    var reach: CommandReach {
      switch choice {
      case .jobs: .session
      case .savedTrace(let path): .reads("tasks \"\(path)\" reads a saved trace's file")
      }
    }

    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      switch choice {
      case .savedTrace(let path):
        // What a trace says of its asks needs no task hooks: every system reads it.
        guard let recording = shell.readTrace(path, command: "tasks") else { return }
        AttachSession.tasks(recording, shell, noTask: "no lane of \(path) was asked by a task it names")
      case .jobs(let ids, let everyTask):
        guard TaskView.available else { return shell.engine.commandFailed("tasks: " + TaskView.unavailable) }
        Self.show(shell, ids, everyTask: everyTask)
      }
    }

    static func show(_ shell: Shell, _ ids: [Int]?, everyTask: Bool) {
      let engine = shell.engine
      // `tasks` alone (no number) shows every running job.
      let chosen =
        ids.map { Array(Set($0)).sorted().compactMap(engine.snapshot(ofJob:)) }
        ?? engine.runningJobSnapshots
      if let ids, let index = ids.firstIndex(where: { !engine.hasJob($0) }) {
        return shell.engine.commandFailed("tasks: no job \(ids[index]) (jobs lists them)", at: index)
      }
      if chosen.isEmpty { return shell.console.line("no running jobs (tasks N shows a job that ended)") }
      for job in chosen {
        for line in TaskView.lines(job, everyTask: everyTask) { shell.console.line(line) }
      }
    }
  }
}
