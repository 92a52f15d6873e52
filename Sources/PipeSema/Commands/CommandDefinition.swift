import PipeSyntax

/// A shell command as the checker, the page and the Swift export know it: its grammar, the check
/// that reads its arguments into the command's own typed fields, and what it reaches and becomes.
/// Each command is one type conforming to this, in one file of `PipeShell/Commands`; the shell's
/// `ShellCommand` adds its run and its help example. A command is known only by the table it is
/// in (`CommandTable`), never by a switch over commands.
public protocol CommandDefinition: Sendable {
  /// What follows its name, its usage and summary: what the parser, the checker, `help`,
  /// completion and Docs/reference.md's table read.
  static var signature: CommandSignature { get }
  /// The command with its arguments, read as its signature's form says (`reader.jobs()` for a
  /// `.jobs` form); nil when `reader` has reported why not.
  static func check(_ reader: inout CommandReader) -> Self?
  /// What it reaches beyond the session: what a page (a shared link) must refuse.
  var reach: CommandReach { get }
  /// What the Swift program `pipesh --emit-swift` writes for it.
  var export: CommandExport { get }
}

/// What a command reaches beyond the session.
public enum CommandReach: Sendable {
  /// Nothing: its jobs, channels and output only.
  case session
  /// It reads a pipeline without running it (`check`, `swift`).
  case readsPipeline(CheckedPipeline)
  /// It runs a pipeline, whose stages may reach files; with `writing`, it writes that file (`to:`).
  case runs(CheckedPipeline, writing: String?)
  /// It reads a file or the terminal: what it reads, said as a page's refusal says it ("load
  /// reads a script file").
  case reads(String)
  /// It chooses the real clock (`clock real`).
  case realClock
}

/// What a command becomes in the Swift program (`pipesh --emit-swift`).
public enum CommandExport: Sendable {
  /// `wait N…`; no numbers: every background job.
  case wait([Int])
  /// `cancel N…`; nil: `cancel all`.
  case cancel([Int]?)
  case send(channel: String, [Value])
  case close(channel: String)
  case fail(channel: String, message: String)
  case sleep(Duration)
  /// `quit`, `exit`: the program returns.
  case quit
  /// `load "F"`: its file's jobs take the next numbers in pipesh, which the program cannot count.
  case load
  /// pipesh's own: a comment in the program; `startsJob` when pipesh runs it as a job, which takes
  /// the next job number.
  case own(startsJob: Bool)
  /// `expect`: pipesh's own in the program (its run is a job); a test for `--emit-test`.
  case expectation(CheckedExpectation)
  /// `validate { … }`: pipesh's own in the program (its run is a job), and left out of the tests.
  case validation
}

/// The commands, in the order `help` lists them.
public struct CommandTable: Sendable {
  public let all: [any CommandDefinition.Type]
  /// What `help` explains beside the commands and operators (`let`).
  public let topics: [String]
  private let byName: [String: any CommandDefinition.Type]

  public init(_ commands: [any CommandDefinition.Type], topics: [String]) {
    all = commands
    self.topics = topics
    byName = Dictionary(commands.map { ($0.signature.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  public subscript(name: String) -> (any CommandDefinition.Type)? { byName[name] }

  public var signatures: [CommandSignature] { all.map { $0.signature } }

  public var names: [String] { all.map { $0.signature.name } }
}

/// A checked shell command: the command, with its arguments in its own fields.
public struct CheckedCommand: Sendable {
  public let command: any CommandDefinition
  /// Where the command is written, and each of its arguments: a run-time error points there.
  public let range: SourceRange
  public let argumentRanges: [SourceRange]

  public var signature: CommandSignature { type(of: command).signature }
  public var name: String { signature.name }
}

/// What `help` explains beside the commands and operators (`help let`), in the order it lists
/// them. A topic may share a command's name (`help jobs` shows both). Its text and examples are
/// the shell's (`Commands.topic(_:)` in `PipeShell`), found by an exhaustive switch.
public enum HelpTopicKind: String, CaseIterable, Sendable {
  case `let`, combine, closures, jobs, time, channels, marbles, serve, attach

  /// The word after `help`.
  public var name: String { rawValue }
}
