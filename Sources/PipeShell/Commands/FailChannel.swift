import Locking
import PipeSema
import PipeSession

extension Commands {
  /// `fail NAME "MESSAGE"`: ends a channel with an error (AsyncThrowingChannel's `fail(_:)`).
  struct FailChannel: ShellCommand {
    static let signature = CommandSignature(
      "fail", .failure, usage: "fail NAME \"MESSAGE\"",
      summary: "ends channel NAME with an error: every consumer's job fails with MESSAGE", namesKnownChannel: true)
    static let example = HelpExample(
      "channel user of: String throws | print &\nsend user \"Phil\"\nfail user \"offline\"\nwait")
    let name: String
    let message: String

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.failure().map { Self(name: $0.channel, message: $0.message) }
    }
    var reach: CommandReach { .session }
    var export: CommandExport { .fail(channel: name, message: message) }

    func run(in shell: Shell) async {
      guard await shell.engine.fail(channel: name, message: message) else {
        return shell.engine.commandFailed(
          "fail: channel '\(name)' is an AsyncChannel, which cannot fail: declare it where it is first used as "
            + "'channel \(name) of: TYPE throws' (in a script, any 'fail \(name)' makes it an AsyncThrowingChannel "
            + "from the start)")
      }
    }
  }
}
