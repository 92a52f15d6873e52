extension Commands {
  /// `jobs`: the job table.
  enum Jobs {
    static let entry = Command.bare("jobs", summary: "lists the jobs: ID STATE TIME OUT PIPELINE") { shell in
      var rows = [["ID", "STATE", "TIME", "OUT", "PIPELINE"]]
      for job in shell.jobs.all {
        rows.append([String(job.id), job.state.rawValue, job.elapsed.secondsText, String(job.output), job.text])
      }
      for line in Format.table(rows) { shell.console.line(line) }
    }.example("timer 1 | take 3 | drain &\nsleep 1.5\njobs")
  }
}
