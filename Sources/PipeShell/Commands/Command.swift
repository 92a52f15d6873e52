import PipeSema

/// A shell command: what the parser and the checker know of it (its `CommandSignature`: name,
/// form, usage, summary) and what it does. Each command is one file in this folder; `Commands`
/// lists them once.
struct Command: Sendable {
  let signature: CommandSignature
  /// Does the command, with the arguments the checker read in the command's form.
  let run: @Sendable (Shell, CommandArguments) async -> Void

  var name: String { signature.name }

  private init(
    _ signature: CommandSignature,
    _ read: @escaping @Sendable (Shell, CommandArguments) async -> Void
  ) {
    self.signature = signature
    self.run = read
  }

  /// Arguments that are not in the command's form: a bug in the checker, reported, never guessed.
  private static func misread(_ shell: Shell, _ name: String, _ arguments: CommandArguments) {
    shell.commandFailed("pipesh read \(name)'s arguments as \(arguments) (a bug: please report it)")
  }

  /// A command without arguments.
  static func bare(
    _ name: String, usage: String? = nil, summary: String, run: @escaping @Sendable (Shell) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .bare, usage: usage ?? name, summary: summary)) { shell, arguments in
      guard case .none = arguments else { return misread(shell, name, arguments) }
      await run(shell)
    }
  }

  /// A command on job numbers; with `all`, `NAME all` is `nil`.
  static func jobs(
    _ name: String, usage: String, summary: String, all: Bool, missing: String?,
    run: @escaping @Sendable (Shell, [Int]?) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .jobs(all: all, missing: missing), usage: usage, summary: summary)) {
      shell, arguments in
      switch arguments {
      case .jobs(let ids): await run(shell, ids)
      case .allJobs where all: await run(shell, nil)
      default: misread(shell, name, arguments)
      }
    }
  }

  /// A command on one job.
  static func job(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, Int) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .job, usage: usage, summary: summary)) { shell, arguments in
      guard case .jobs(let ids) = arguments, ids.count == 1 else { return misread(shell, name, arguments) }
      await run(shell, ids[0])
    }
  }

  /// A command on a pipeline; `partial` allows one without a source or a sink.
  static func pipeline(
    _ name: String, usage: String, summary: String, partial: Bool = false,
    run: @escaping @Sendable (Shell, CheckedPipeline) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .pipeline(partial: partial), usage: usage, summary: summary)) {
      shell, arguments in
      guard case .pipeline(let pipeline) = arguments else { return misread(shell, name, arguments) }
      await run(shell, pipeline)
    }
  }

  /// A command on a channel and constants.
  static func values(
    _ name: String, usage: String, summary: String,
    run: @escaping @Sendable (Shell, String, [Value]) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .values, usage: usage, summary: summary)) { shell, arguments in
      guard case .values(let channel, let values) = arguments else { return misread(shell, name, arguments) }
      await run(shell, channel, values)
    }
  }

  /// A command on one bare word, one of `choices` when given.
  static func word(
    _ name: String, usage: String, summary: String, choices: [String]? = nil, missing: String,
    run: @escaping @Sendable (Shell, String) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .word(choices: choices, missing: missing), usage: usage, summary: summary)) {
      shell, arguments in
      guard case .word(let word) = arguments else { return misread(shell, name, arguments) }
      await run(shell, word)
    }
  }

  /// A command on an optional command or operator name.
  static func topic(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, String?) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .topic, usage: usage, summary: summary)) { shell, arguments in
      guard case .topic(let topic) = arguments else { return misread(shell, name, arguments) }
      await run(shell, topic)
    }
  }

  /// A command on a file name.
  static func file(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, String) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .file, usage: usage, summary: summary)) { shell, arguments in
      guard case .file(let path) = arguments else { return misread(shell, name, arguments) }
      await run(shell, path)
    }
  }

  /// A command on a duration.
  static func duration(
    _ name: String, usage: String, summary: String, run: @escaping @Sendable (Shell, Duration) async -> Void
  ) -> Command {
    Command(CommandSignature(name, .duration, usage: usage, summary: summary)) { shell, arguments in
      guard case .duration(let duration) = arguments else { return misread(shell, name, arguments) }
      await run(shell, duration)
    }
  }
}
