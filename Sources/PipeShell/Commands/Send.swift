import PipeSema
import PipeSession

extension Commands {
  /// `send NAME V…`: pushes values into a channel, each waiting for a consumer to take it; yields
  /// them into a stream, or sets a subject, without waiting.
  struct Send: ShellCommand {
    static let signature = CommandSignature(
      "send", .values, usage: "send NAME V…",
      summary: "pushes values into channel NAME (waits for a consumer), stream NAME (never waits) or subject NAME",
      backgroundNote: "a pipeline sends in the background: from 1 2 | into NAME & (top and lint show it waiting)")
    static let example = HelpExample(
      "channel orders of: String | print time: true &\nsend orders \"a\" \"b\"\nclose orders")
    let name: String
    let values: [Value]

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.values().map { Self(name: $0.channel, values: $0.values) }
    }
    var reach: CommandReach { .session }
    var export: CommandExport { .send(channel: name, values) }

    func run(in shell: Shell) async {
      await shell.engine.send(values, to: name)
    }
  }
}
