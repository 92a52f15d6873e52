import PipeSession
import PipeSyntax

extension Commands {
  /// `jobs`: the job table.
  enum Jobs {
    static let entry = Command.bare(.jobs) { shell in
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
    static let entry = Command.bare(.lint) { shell in
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
