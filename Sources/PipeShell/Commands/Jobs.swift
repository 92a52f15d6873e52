import PipeSession
import PipeSyntax

extension Commands {
  /// `jobs`: the job table.
  enum Jobs {
    static let entry = Command.bare(
      "jobs",
      summary:
        "lists the jobs: ID STATE TIME OUT PIPELINE (a long pipeline shortened with … to fit the screen); a job with a warning is marked ! and its warning follows the table (lint explains them)"
    ) { shell in
      var rows = [["ID", "STATE", "TIME", "OUT", "PIPELINE"]]
      let colour = Paint.isOn(for: 1)
      var lints: [JobLint] = []
      for job in shell.engine.jobs.all {
        let warnings = Lints.of(job)
        lints += warnings
        rows.append([
          String(job.id) + (warnings.isEmpty ? "" : "!"), Paint.state(job.state.rawValue, on: colour),
          job.elapsed.secondsText, String(job.output), job.text,
        ])
      }
      let width = Format.screenWidth
      for line in Format.table(rows, fitting: width, shrinking: 4) { shell.console.line(line) }
      for line in Lints.footnotes(lints, width: width) { shell.console.line(line) }
    }.example("timer 1 | take 3 | drain &\nsleep 1.5\njobs")
  }

  /// `lint`: the running jobs' warnings, each with why and what to do.
  enum Lint {
    static let entry = Command.bare(
      "lint",
      summary:
        "lists the warnings about running jobs, each with why and what to do: a background drain of an endless source (its output goes nowhere), a background job that has produced nothing for a minute (a leak?), a buffer dropping elements, a debounce whose input never pauses, an into waiting 5s or more for a consumer, a share holding more than 10 elements for its slowest reader, a stream read by several consumers at once (they split its elements)"
    ) { shell in
      let lints = shell.engine.jobs.all.flatMap(Lints.of)
      guard !lints.isEmpty else { return shell.console.line("lint: no warnings") }
      let width = Format.screenWidth
      for lint in lints {
        let job = shell.engine.jobs.all.first { $0.id == lint.job }
        shell.console.line(Format.shortened("[\(lint.job)] \(lint.kind.rawValue): \(job?.text ?? "")", to: width))
        for line in Format.wrapped("  why: \(lint.why)", width: width) { shell.console.line(line) }
        for line in Format.wrapped("  do: \(lint.fix)", width: width) { shell.console.line(line) }
      }
    }.example("timer 1 | drain &\nsleep 2\nlint\ncancel 1")
  }
}
