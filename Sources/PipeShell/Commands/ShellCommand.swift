import PipeSema
import PipeSyntax

/// A shell command: one type, in one file of this folder, with every facet the compiler asks
/// for. `CommandDefinition` (in `PipeSema`) has its grammar (`signature`: what the parser,
/// `help`, completion and Docs/reference.md read), its check (`check`, reading the arguments into
/// the type's own fields), what it reaches beyond the session (a page refuses that) and what the
/// Swift export writes for it; this adds what it does and the example `help NAME` runs. It is
/// known by its place in `Commands.all` alone.
protocol ShellCommand: CommandDefinition {
  /// A short script using the command, which `help NAME` runs on the virtual clock and shows
  /// with its output.
  static var example: HelpExample { get }
  /// Does the command, with the arguments its check read.
  func run(in shell: Shell) async
}

/// A command's help example; `runs: false` where it cannot run in a fresh session (`load` needs
/// a file, `history` a terminal).
struct HelpExample: Sendable {
  let text: String
  let runs: Bool

  init(_ text: String, runs: Bool = true) {
    self.text = text
    self.runs = runs
  }
}

/// The shell's commands.
public enum Commands {
  /// Every command, in the order `help` lists them. A new command is a type conforming to
  /// `ShellCommand` in a file of its own, and a line here.
  static let all: [any ShellCommand.Type] = [
    Jobs.self, Lint.self, Top.self, Cancel.self, Wait.self, Inspect.self, Tasks.self, Trace.self, Replay.self,
    Draw.self, Explore.self, Why.self, Compare.self, Expect.self, Check.self, Send.self, Close.self, FailChannel.self,
    Sleep.self, Step.self, Run.self, Validate.self, Swift.self, Help.self, Ops.self, Names.self, Load.self,
    Clock.self, Stats.self, History.self, Quit.self, Exit.self,
  ]

  /// What the checker checks commands against: every command, and `help`'s topics.
  public static let table = CommandTable(all.map { $0 }, topics: HelpTopicKind.allCases.map(\.name))

  /// The command a word names, if it names one (`help NAME`).
  static func named(_ name: String) -> (any ShellCommand.Type)? {
    all.first { $0.signature.name == name }
  }
}

extension Environment {
  /// The environment a session starts from: the catalogue's operators, the shell's commands, no
  /// names.
  public static var pipesh: Environment { Environment(commands: Commands.table) }
}

extension Grammar {
  /// What the parser needs to know of pipesh's commands and operators.
  public static let pipesh = Environment.pipesh.grammar
}
