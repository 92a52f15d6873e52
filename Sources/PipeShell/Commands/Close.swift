import PipeSema
import PipeSession

extension Commands {
  /// `close NAME`: finishes a channel; its consumers end once they have taken what was sent.
  struct Close: ShellCommand {
    static let signature = CommandSignature(
      "close", .word(choices: nil, missing: "name one channel"), usage: "close NAME",
      summary: "finishes channel, stream or subject NAME", namesKnownChannel: true)
    static let example = HelpExample("channel c of: Int | count &\nsend c 1 2 3\nclose c\nwait")
    let name: String

    static func check(_ reader: inout CommandReader) -> Self? { reader.word().map { Self(name: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .close(channel: name) }

    func run(in shell: Shell) async {
      await shell.engine.close(channel: name)
    }
  }
}
