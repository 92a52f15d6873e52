import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Commands {
  /// `jobs`: the job table.
  struct Jobs: ShellCommand {
    static let signature = CommandSignature(
      "jobs", .bare,
      summary:
        "lists the jobs: ID STATE TIME OUT PIPELINE (a long pipeline shortened with … to fit the screen); a job with a warning is marked ! and its warning follows the table (lint explains them)"
    )
    static let example = HelpExample("timer 1 | take 3 | drain &\nsleep 1.5\njobs")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      var rows = [["ID", "STATE", "TIME", "OUT", "PIPELINE"]]
      let colour = Paint.isOn(for: 1)
      var lints: [JobLint] = []
      for job in shell.engine.jobSnapshots {
        let warnings = shell.engine.lints(ofJob: job.id)
        lints += warnings
        rows.append([
          String(job.id) + (warnings.isEmpty ? "" : "!"), Paint.state(job.state.rawValue, on: colour),
          job.elapsed.secondsText, String(job.output), job.text,
        ])
      }
      let width = Format.screenWidth
      for line in Format.table(rows, fitting: width, shrinking: 4) { shell.console.line(line) }
      for line in Lints.footnotes(lints, width: width) { shell.console.line(line) }
    }
  }
}
