import PipeSyntax

extension Commands {
  /// `jobs`: the job table.
  enum Jobs {
    static let entry = Command.bare(
      "jobs", summary: "lists the jobs: ID STATE TIME OUT PIPELINE (a long pipeline shortened with … to fit the screen)"
    ) { shell in
      var rows = [["ID", "STATE", "TIME", "OUT", "PIPELINE"]]
      let colour = Paint.isOn(for: 1)
      for job in shell.jobs.all {
        rows.append([
          String(job.id), Paint.state(job.state.rawValue, on: colour), job.elapsed.secondsText, String(job.output),
          job.text,
        ])
      }
      for line in Format.table(rows, fitting: Format.screenWidth, shrinking: 4) { shell.console.line(line) }
    }.example("timer 1 | take 3 | drain &\nsleep 1.5\njobs")
  }
}
