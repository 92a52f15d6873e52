import PipeSyntax

/// What follows a command's name, and so how the checker reads it.
public enum CommandForm: Sendable {
  /// Nothing: `jobs`.
  case bare
  /// Job numbers, as many as given (`wait`, `wait 1 2`); with `all`, the word `all` too;
  /// `missing` is the message when none are given and some must be.
  case jobs(all: Bool, missing: String?)
  /// Exactly one job number: `inspect 1`.
  case job
  /// A pipeline; `partial` allows one without a source or a sink (`check map { $0 }`); after it,
  /// the labelled durations `options` name (`draw … tick: 0.5`). With `savedTrace`, a saved trace's
  /// file may stand instead of the pipeline (`draw "F.trace"`).
  case pipeline(partial: Bool, options: [String] = [], savedTrace: Bool = false)
  /// A channel name and constants: `send c 1 2`.
  case values
  /// One bare word; `choices` limits it (`clock real`), `missing` says what to give. With
  /// `optional`, the command alone reads as the word "" (`clock` shows the clock).
  case word(choices: [String]?, missing: String, optional: Bool = false)
  /// An optional bare word naming a command or an operator: `help`, `help take`.
  case topic
  /// One string: `load "demo.pipe"`.
  case file
  /// An optional job number and an optional duration labelled `label`: `step`, `step 2 until: 5`.
  case optionalJob(label: String)
  /// A saved trace's file, and how fast to play it back (`replay "run.trace" speed: 10`), or
  /// whether to step through it (`step: true`).
  case recording
  /// One duration, more than zero: `sleep 2.5`.
  case duration
  /// A channel name and a message: `fail user "offline"`.
  case failure
  /// A block taken as written and read as swift-async-algorithms' validation form:
  /// `validate { "ab|" ⏎ $0.inputs[0] ⏎ "ab|" }`.
  case validation
  /// A pipeline, a claim about it (`== "DIAGRAM"`, `prints V…`, `fails "M"`, `ends "NODE" "R"`),
  /// then the labelled `options`: `expect P == "ab|" tick: 2`.
  case expectation(options: [String])
}

/// What the checker read after a command's name, in its form.
public enum CommandArguments: Sendable {
  case none
  case jobs([Int])
  case allJobs
  /// `tasks N… all`: the jobs, with every task of pipesh's own shown (not folded into a count).
  case jobsWithEveryTask([Int])
  case pipeline(CheckedPipeline, options: CommandOptions)
  /// A saved trace's file where a pipeline could stand, and the options after it.
  case savedTrace(String, options: CommandOptions)
  case values(channel: String, [Value])
  case word(String)
  case topic(String?)
  case file(String)
  /// `why "F.trace" FROM TO`: a saved trace's file and two of its lanes.
  case traceLanes(String, from: String, to: String)
  /// A job number, or nil for every job, and a time, or nil for the next instant: `step 2 until: 5`.
  case optionalJob(Int?, until: Duration?)
  /// `speed` nil: show every event at once; `step`: show them an instant a `step`.
  case recording(String, speed: Double?, step: Bool)
  case duration(Duration)
  case failure(channel: String, message: String)
  /// `validate { … }`, read and translated.
  case validation(CheckedValidation)
  case expectation(CheckedExpectation)
}

extension CommandArguments {
  /// The channel a `close NAME` or `fail NAME "…"` names.
  var channel: String? {
    switch self {
    case .word(let word): word
    case .failure(let channel, _): channel
    default: nil
    }
  }
}

/// A shell command as the parser and the checker see it: its kind, its form, its help.
public struct CommandSignature: Sendable {
  public let kind: CommandKind
  public let form: CommandForm
  /// `cancel N… | cancel all`
  public let usage: String
  public let summary: String
  /// Whether its first word names a channel that must exist already (`close`, `fail`): a typo
  /// would otherwise leave the real channel open.
  public let namesKnownChannel: Bool
  /// The endings a `to: "FILE"` may have (`.svg`, `.html`, and `.trace` for `trace`): any other is
  /// refused before anything runs (`to: "x.jsonl"` wrote an SVG picture and said it wrote x.jsonl).
  public let files: [String]
  /// What the command written with `&` says besides that a command runs in the foreground (`send`:
  /// how a pipeline sends in the background); nil: to run it without `&`.
  public let backgroundNote: String?

  /// What `to:` writes for most commands: an SVG picture or a web page.
  public static let pictureFiles = [".svg", ".html"]

  /// A command's grammar; `usage` is its name when nothing follows it.
  init(
    _ kind: CommandKind, _ form: CommandForm, usage: String? = nil, summary: String, namesKnownChannel: Bool = false,
    files: [String] = pictureFiles, backgroundNote: String? = nil
  ) {
    self.kind = kind
    self.form = form
    self.usage = usage ?? kind.name
    self.summary = summary
    self.namesKnownChannel = namesKnownChannel
    self.files = files
    self.backgroundNote = backgroundNote
  }

  /// The name a statement writes.
  public var name: String { kind.name }

  /// Whether its `{ … }` is taken as written (`validate`).
  var takesVerbatimBlock: Bool {
    if case .validation = form { return true }
    return false
  }

  var takesPipeline: Bool {
    switch form {
    case .pipeline, .expectation: true
    default: false
    }
  }

  /// The labels that end the command's pipeline and start its own options.
  public var options: [String] {
    switch form {
    case .pipeline(_, let options, _), .expectation(let options): options
    default: []
    }
  }
}

/// The commands, in the order `help` lists them.
public struct CommandTable: Sendable {
  public let all: [CommandSignature]
  /// What `help` explains beside the commands and operators (`let`).
  public let topics: [String]
  private let byName: [String: CommandSignature]

  public init(_ commands: [CommandSignature], topics: [String]) {
    all = commands
    self.topics = topics
    byName = Dictionary(commands.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  public subscript(name: String) -> CommandSignature? { byName[name] }

  public var names: [String] { all.map(\.name) }
}

/// A checked shell command: which one, and its arguments in its form.
public struct CheckedCommand: Sendable {
  public let kind: CommandKind
  public let arguments: CommandArguments
  /// Where the command is written, and each of its arguments: a run-time error points there.
  public let range: SourceRange
  public let argumentRanges: [SourceRange]
}
