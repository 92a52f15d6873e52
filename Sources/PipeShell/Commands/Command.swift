import PipeSema
import PipeSession

/// A shell command: what the parser and the checker know of it (its `CommandSignature`: name,
/// form, usage, summary) and what it does. Each command is one file in this folder; `Commands`
/// lists them once.
struct Command: Sendable {
  let signature: CommandSignature
  /// Does the command, with the arguments the checker read in the command's form.
  let run: @Sendable (Shell, CommandArguments) async -> Void
  /// A short script using the command, which `help NAME` runs on the virtual clock and shows with
  /// its output; `runs: false` where it cannot run in a fresh session (`load` needs a file).
  private(set) var example = ""
  private(set) var exampleRuns = true

  var name: String { signature.name }

  /// The command with `text` as its help example.
  func example(_ text: String, runs: Bool = true) -> Command {
    var command = self
    command.example = text
    command.exampleRuns = runs
    return command
  }

  private init(
    _ signature: CommandSignature,
    _ read: @escaping @Sendable (Shell, CommandArguments) async -> Void
  ) {
    self.signature = signature
    self.run = read
  }

  /// Arguments that are not in the command's form: a bug in the checker, reported, never guessed.
  private static func misread(_ shell: Shell, _ name: String, _ arguments: CommandArguments) {
    shell.engine.commandFailed("pipesh read \(name)'s arguments as \(arguments) (a bug: please report it)")
  }

  /// A command whose `run` takes what `read` finds in the checked arguments.
  private static func reading<Read: Sendable>(
    _ signature: CommandSignature, _ read: @escaping @Sendable (CommandArguments) -> Read?,
    _ run: @escaping @Sendable (Shell, Read) async -> Void
  ) -> Command {
    Command(signature) { shell, arguments in
      guard let read = read(arguments) else { return misread(shell, signature.name, arguments) }
      await run(shell, read)
    }
  }

  /// A command without arguments.
  static func bare(
    _ name: String, usage: String? = nil, summary: String, run: @escaping @Sendable (Shell) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .bare, usage: usage ?? name, summary: summary),
      { if case .none = $0 { () } else { nil } }, { shell, _ in await run(shell) })
  }

  /// A command on job numbers; with `all`, `NAME all` is `nil`.
  static func jobs(
    _ name: String, usage: String, summary: String, all: Bool, missing: String?,
    run: @escaping @Sendable (Shell, [Int]?) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .jobs(all: all, missing: missing), usage: usage, summary: summary),
      { arguments -> [Int]?? in
        switch arguments {
        case .jobs(let ids): .some(ids)
        case .allJobs where all: .some(nil)
        default: nil
        }
      }, run)
  }

  /// A command on one job.
  static func job(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, Int) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .job, usage: usage, summary: summary),
      { if case .jobs(let ids) = $0, ids.count == 1 { ids[0] } else { nil } }, run)
  }

  /// A command on a pipeline; `partial` allows one without a source or a sink.
  static func pipeline(
    _ name: String, usage: String, summary: String, partial: Bool = false, options: [String] = [],
    files: [String] = CommandSignature.pictureFiles,
    run: @escaping @Sendable (Shell, CheckedPipeline, CommandOptions) async -> Void
  ) -> Command {
    reading(
      CommandSignature(
        name, .pipeline(partial: partial, options: options), usage: usage, summary: summary, files: files),
      { if case .pipeline(let pipeline, let options) = $0 { (pipeline, options) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on a pipeline or on a saved trace's file in its place (`draw "F.trace"`).
  static func pipelineOrTrace(
    _ name: String, usage: String, summary: String, options: [String],
    run: @escaping @Sendable (Shell, CheckedPipeline, CommandOptions) async -> Void,
    runTrace: @escaping @Sendable (Shell, String, CommandOptions) async -> Void
  ) -> Command {
    let signature = CommandSignature(
      name, .pipeline(partial: false, options: options, savedTrace: true), usage: usage, summary: summary)
    return Command(signature) { shell, arguments in
      switch arguments {
      case .pipeline(let pipeline, let options): await run(shell, pipeline, options)
      case .savedTrace(let path, let options): await runTrace(shell, path, options)
      default: misread(shell, name, arguments)
      }
    }
  }

  /// A command on a channel and constants.
  static func values(
    _ name: String, usage: String, summary: String,
    run: @escaping @Sendable (Shell, String, [Value]) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .values, usage: usage, summary: summary),
      { if case .values(let channel, let values) = $0 { (channel, values) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on one bare word, one of `choices` when given.
  static func word(
    _ name: String, usage: String, summary: String, choices: [String]? = nil, missing: String, optional: Bool = false,
    namesKnownChannel: Bool = false, run: @escaping @Sendable (Shell, String) async -> Void
  ) -> Command {
    reading(
      CommandSignature(
        name, .word(choices: choices, missing: missing, optional: optional), usage: usage, summary: summary,
        namesKnownChannel: namesKnownChannel),
      { if case .word(let word) = $0 { word } else { nil } }, run)
  }

  /// A command on an optional command or operator name.
  static func topic(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, String?) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .topic, usage: usage, summary: summary),
      { if case .topic(let topic) = $0 { .some(topic) } else { nil } }, run)
  }

  /// A command on a file name.
  static func file(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, String) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .file, usage: usage, summary: summary),
      { if case .file(let path) = $0 { path } else { nil } }, run)
  }

  /// A command on a saved trace's file and a playback speed: `replay "F.trace" speed: 10`.
  static func recording(
    _ name: String, usage: String, summary: String,
    run: @escaping @Sendable (Shell, String, Double?) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .recording, usage: usage, summary: summary),
      { if case .recording(let path, let speed) = $0 { (path, speed) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on a duration.
  static func duration(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, Duration) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .duration, usage: usage, summary: summary),
      { if case .duration(let duration) = $0 { duration } else { nil } }, run)
  }

  /// A command on a channel and a message.
  static func failure(
    _ name: String, usage: String, summary: String,
    run: @escaping @Sendable (Shell, String, String) async -> Void
  ) -> Command {
    reading(
      CommandSignature(name, .failure, usage: usage, summary: summary, namesKnownChannel: true),
      { if case .failure(let channel, let message) = $0 { (channel, message) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }
}
