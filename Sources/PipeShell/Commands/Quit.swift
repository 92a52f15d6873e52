import PipeSema
import PipeSession

extension Commands {
  /// `quit`: leave; running jobs are cancelled.
  struct Quit: ShellCommand {
    static let signature = CommandSignature("quit", .bare, summary: "leaves; running jobs are cancelled")
    static let example = HelpExample("from 1 | print\nquit\nfrom 2 | print")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .quit }

    func run(in shell: Shell) async {
      shell.engine.setQuit()
    }
  }
}
