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

/// A shell command as the parser and the checker see it: its name, its form, its help.
public struct CommandSignature: Sendable {
  /// The name a statement writes.
  public let name: String
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

  /// Whether a script that has the command watches its jobs from its start (`step`: its first step
  /// can step any of them).
  public let watchesJobsFromStart: Bool

  /// A command's grammar; `usage` is its name when nothing follows it.
  public init(
    _ name: String, _ form: CommandForm, usage: String? = nil, summary: String, namesKnownChannel: Bool = false,
    files: [String] = pictureFiles, backgroundNote: String? = nil, watchesJobsFromStart: Bool = false
  ) {
    self.name = name
    self.form = form
    self.usage = usage ?? name
    self.summary = summary
    self.namesKnownChannel = namesKnownChannel
    self.files = files
    self.backgroundNote = backgroundNote
    self.watchesJobsFromStart = watchesJobsFromStart
  }

  /// Whether its `{ … }` is taken as written (`validate`).
  var takesVerbatimBlock: Bool {
    if case .validation = form { return true }
    return false
  }

  var takesPipeline: Bool {
    switch form {
    case .pipeline, .expectation: true
    case .bare, .jobs, .job, .values, .word, .topic, .file, .optionalJob, .recording, .duration, .failure,
      .validation:
      false
    }
  }

  /// The labels that end the command's pipeline and start its own options.
  public var options: [String] {
    switch form {
    case .pipeline(_, let options, _), .expectation(let options): options
    case .bare, .jobs, .job, .values, .word, .topic, .file, .optionalJob, .recording, .duration, .failure,
      .validation:
      []
    }
  }
}
