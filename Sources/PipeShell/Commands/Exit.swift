import PipeSema
import PipeSession

extension Commands {
  /// `exit`: leave, as `quit` does; running jobs are cancelled.
  struct Exit: ShellCommand {
    static let signature = CommandSignature("exit", .bare, summary: "leaves; running jobs are cancelled")
    static let example = HelpExample("from 1 | print\nexit\nfrom 2 | print")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .quit }

    func run(in shell: Shell) async {
      shell.engine.setQuit()
    }
  }
}
