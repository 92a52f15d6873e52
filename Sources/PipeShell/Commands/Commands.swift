import PipeRuntime
import PipeSema
import PipeSession
import PipeSyntax

/// Every shell command, once, in the order `help` lists them.
public enum Commands {
  static let all: [Command] = [
    Jobs.entry, Lint.entry, Top.entry, Cancel.entry, Wait.entry, Inspect.entry, Trace.entry, Replay.entry, Draw.entry,
    Compare.entry,
    Check.entry,
    Send.entry,
    Close.entry, FailChannel.entry, Sleep.entry, Swift.entry, Help.entry, Ops.entry, Names.entry, Load.entry,
    Clock.entry,
    Stats.entry, History.entry,
    Quit.entry, Quit.exitEntry,
  ]

  private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  static func named(_ name: String) -> Command? { byName[name] }

  /// What the checker checks commands against.
  public static let signatures = CommandTable(all.map(\.signature), topics: topics.map(\.name))

  /// The environment a session starts from: the runtime's operators and these commands.
  public static var environment: Environment {
    Environment(commands: signatures)
  }

  /// What the parser needs to know of the commands and operators.
  public static let grammar = environment.grammar
}
