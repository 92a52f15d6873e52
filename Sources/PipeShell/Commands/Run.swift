import PipeSema
import PipeSession

extension Commands {
  /// `run`: lets go of the clock `step` holds; while a saved trace is being stepped, shows the
  /// rest of it.
  struct Run: ShellCommand {
    static let signature = CommandSignature(
      "run", .bare,
      summary:
        "lets go of the clock step holds: at the prompt it runs again while you type, and a script's end runs its jobs on as usual"
    )
    static let example = HelpExample("timer 1 | take 3 | print &\nstep\nstep\nrun\nwait")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      if let replay = shell.replaySteps { return replay.finish(shell) }
      shell.engine.letClockRun()
    }
  }
}
