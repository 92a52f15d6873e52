import PipeSema
import PipeSession
import PipeViews

extension Commands {
  /// `history`: the lines said in this session.
  struct History: ShellCommand {
    static let signature = CommandSignature("history", .bare, summary: "lists the line history")
    static let example = HelpExample("history", runs: false)

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .reads("history reads the terminal's line history") }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      let lines = shell.historyProvider?() ?? []
      for (index, line) in lines.enumerated() {
        shell.console.line(Format.padLeft(String(index + 1), 5) + "  " + line)
      }
    }
  }
}
