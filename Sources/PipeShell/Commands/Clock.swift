import PipeSema
import PipeSession
import VirtualTime

extension Commands {
  /// `clock real`, `clock virtual`: the clock of the pipelines started from now on; `clock` alone
  /// shows it.
  struct Clock: ShellCommand {
    static let signature = CommandSignature(
      "clock",
      .word(
        choices: ["real", "virtual"], missing: "say real or virtual, or nothing to see the clock", optional: true),
      usage: "clock [real | virtual]", summary: "shows the clock, or chooses it for pipelines started from now on")
    static let example = HelpExample("clock virtual\ntimer 10m | take 2 | print time: true\nclock")
    let which: String

    static func check(_ reader: inout CommandReader) -> Self? { reader.word().map { Self(which: $0) } }
    var reach: CommandReach { which == "real" ? .realClock : .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      guard !which.isEmpty else {
        shell.console.line(shell.clockDescription)
        return
      }
      shell.engine.virtualTime = which == "virtual"
    }
  }
}

extension Shell {
  /// `clock` alone: which clock new pipelines start on, and where the virtual one stands.
  var clockDescription: String {
    guard engine.virtualTime else { return "clock: real" }
    let now = engine.virtualNow?.offset ?? .zero
    return "clock: virtual, at \(now.stampText) (it moves only while the shell waits for something)"
  }
}
