import PipeSema
import PipeSession

/// What a shell command does: its run, reading the arguments its `CommandKind`'s signature gives
/// (the grammar, in `PipeSema`), and the example `help NAME` runs. Each command is one file in
/// this folder; `Commands.entry(_:)` finds it by kind.
struct Command: Sendable {
  let kind: CommandKind
  /// Does the command, with the arguments the checker read in the command's form.
  let run: @Sendable (Shell, CommandArguments) async -> Void
  /// Whether `run` reads the arguments of the form the signature says (`.jobs` for `cancel`): a
  /// constructor that does not match its kind's form would misread every use of the command.
  let readsItsForm: Bool
  /// A short script using the command, which `help NAME` runs on the virtual clock and shows with
  /// its output; `runs: false` where it cannot run in a fresh session (`load` needs a file).
  private(set) var example = ""
  private(set) var exampleRuns = true

  var signature: CommandSignature { kind.signature }

  /// The command with `text` as its help example.
  func example(_ text: String, runs: Bool = true) -> Command {
    var command = self
    command.example = text
    command.exampleRuns = runs
    return command
  }

  private init(
    _ kind: CommandKind, readsItsForm: Bool,
    _ read: @escaping @Sendable (Shell, CommandArguments) async -> Void
  ) {
    self.kind = kind
    self.readsItsForm = readsItsForm
    self.run = read
  }

  /// Arguments that are not in the command's form: a bug in the checker, reported, never guessed.
  private static func misread(_ shell: Shell, _ name: String, _ arguments: CommandArguments) {
    shell.engine.commandFailed("pipesh read \(name)'s arguments as \(arguments) (a bug: please report it)")
  }

  /// A command whose `run` takes what `read` finds in the checked arguments; `form` says whether
  /// the kind's form is the one `read` reads.
  private static func reading<Read: Sendable>(
    _ kind: CommandKind, form: (CommandForm) -> Bool, _ read: @escaping @Sendable (CommandArguments) -> Read?,
    _ run: @escaping @Sendable (Shell, Read) async -> Void
  ) -> Command {
    Command(kind, readsItsForm: form(kind.signature.form)) { shell, arguments in
      guard let read = read(arguments) else { return misread(shell, kind.name, arguments) }
      await run(shell, read)
    }
  }

  /// A command without arguments.
  static func bare(_ kind: CommandKind, run: @escaping @Sendable (Shell) async -> Void) -> Command {
    reading(
      kind, form: { if case .bare = $0 { true } else { false } },
      { if case .none = $0 { () } else { nil } }, { shell, _ in await run(shell) })
  }

  /// A command on job numbers; `NAME all` is `nil` where the form allows it.
  static func jobs(_ kind: CommandKind, run: @escaping @Sendable (Shell, [Int]?) async -> Void) -> Command {
    let all = if case .jobs(let all, _) = kind.signature.form { all } else { false }
    return reading(
      kind, form: { if case .jobs = $0 { true } else { false } },
      { arguments -> [Int]?? in
        switch arguments {
        case .jobs(let ids): .some(ids)
        case .allJobs where all: .some(nil)
        default: nil
        }
      }, run)
  }

  /// What `tasks` shows: jobs' task trees, or a saved trace's asking tasks.
  enum TaskChoice: Sendable {
    /// Job numbers (nil: the running jobs), and whether every task of pipesh's own is shown
    /// (`tasks N… all`).
    case jobs([Int]?, everyTask: Bool)
    /// `tasks "F.trace"`.
    case savedTrace(String)
  }

  /// `tasks`: what `TaskChoice` says.
  static func taskJobs(_ kind: CommandKind, run: @escaping @Sendable (Shell, TaskChoice) async -> Void) -> Command {
    reading(
      kind, form: { if case .jobs = $0 { true } else { false } },
      { arguments -> TaskChoice? in
        switch arguments {
        case .jobs(let ids): .jobs(ids.isEmpty ? nil : ids, everyTask: false)
        case .jobsWithEveryTask(let ids): .jobs(ids, everyTask: true)
        case .file(let path): .savedTrace(path)
        default: nil
        }
      }, run)
  }

  /// What `why` explains: a job's fates, or two lanes of a saved probe trace.
  enum WhyChoice: Sendable {
    case job(Int)
    /// `why "F.trace" FROM TO`.
    case traceLanes(String, from: String, to: String)
  }

  /// `why`: what `WhyChoice` says.
  static func why(_ kind: CommandKind, run: @escaping @Sendable (Shell, WhyChoice) async -> Void) -> Command {
    reading(
      kind, form: { if case .job = $0 { true } else { false } },
      { arguments -> WhyChoice? in
        switch arguments {
        case .jobs(let ids) where ids.count == 1: .job(ids[0])
        case .traceLanes(let path, let from, let to): .traceLanes(path, from: from, to: to)
        default: nil
        }
      }, run)
  }

  /// A command on one job.
  static func job(_ kind: CommandKind, run: @escaping @Sendable (Shell, Int) async -> Void) -> Command {
    reading(
      kind, form: { if case .job = $0 { true } else { false } },
      { if case .jobs(let ids) = $0, ids.count == 1 { ids[0] } else { nil } }, run)
  }

  /// A command on a pipeline.
  static func pipeline(
    _ kind: CommandKind, run: @escaping @Sendable (Shell, CheckedPipeline, CommandOptions) async -> Void
  ) -> Command {
    reading(
      kind, form: { if case .pipeline(_, _, savedTrace: false) = $0 { true } else { false } },
      { if case .pipeline(let pipeline, let options) = $0 { (pipeline, options) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on a pipeline or on a saved trace's file in its place (`draw "F.trace"`).
  static func pipelineOrTrace(
    _ kind: CommandKind,
    run: @escaping @Sendable (Shell, CheckedPipeline, CommandOptions) async -> Void,
    runTrace: @escaping @Sendable (Shell, String, CommandOptions) async -> Void
  ) -> Command {
    let form = if case .pipeline(_, _, savedTrace: true) = kind.signature.form { true } else { false }
    return Command(kind, readsItsForm: form) { shell, arguments in
      switch arguments {
      case .pipeline(let pipeline, let options): await run(shell, pipeline, options)
      case .savedTrace(let path, let options): await runTrace(shell, path, options)
      default: misread(shell, kind.name, arguments)
      }
    }
  }

  /// A command on a channel and constants.
  static func values(_ kind: CommandKind, run: @escaping @Sendable (Shell, String, [Value]) async -> Void) -> Command {
    reading(
      kind, form: { if case .values = $0 { true } else { false } },
      { if case .values(let channel, let values) = $0 { (channel, values) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on one bare word.
  static func word(_ kind: CommandKind, run: @escaping @Sendable (Shell, String) async -> Void) -> Command {
    reading(
      kind, form: { if case .word = $0 { true } else { false } },
      { if case .word(let word) = $0 { word } else { nil } }, run)
  }

  /// A command on an optional command or operator name.
  static func topic(_ kind: CommandKind, run: @escaping @Sendable (Shell, String?) async -> Void) -> Command {
    reading(
      kind, form: { if case .topic = $0 { true } else { false } },
      { if case .topic(let topic) = $0 { .some(topic) } else { nil } }, run)
  }

  /// A command on a file name.
  static func file(_ kind: CommandKind, run: @escaping @Sendable (Shell, String) async -> Void) -> Command {
    reading(
      kind, form: { if case .file = $0 { true } else { false } },
      { if case .file(let path) = $0 { path } else { nil } }, run)
  }

  /// A command on a saved trace's file and a playback speed (`replay "F.trace" speed: 10`), or
  /// whether to step through it (`step: true`).
  static func recording(
    _ kind: CommandKind, run: @escaping @Sendable (Shell, String, Double?, Bool) async -> Void
  ) -> Command {
    reading(
      kind, form: { if case .recording = $0 { true } else { false } },
      { if case .recording(let path, let speed, let step) = $0 { (path, speed, step) } else { nil } },
      { shell, read in await run(shell, read.0, read.1, read.2) })
  }

  /// A command on an optional job number and an optional time: `step 2 until: 5`.
  static func optionalJob(
    _ kind: CommandKind, run: @escaping @Sendable (Shell, Int?, Duration?) async -> Void
  ) -> Command {
    reading(
      kind, form: { if case .optionalJob = $0 { true } else { false } },
      { if case .optionalJob(let job, let until) = $0 { (job, until) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on a duration.
  static func duration(_ kind: CommandKind, run: @escaping @Sendable (Shell, Duration) async -> Void) -> Command {
    reading(
      kind, form: { if case .duration = $0 { true } else { false } },
      { if case .duration(let duration) = $0 { duration } else { nil } }, run)
  }

  /// A command on a channel and a message.
  static func failure(
    _ kind: CommandKind, run: @escaping @Sendable (Shell, String, String) async -> Void
  ) -> Command {
    reading(
      kind, form: { if case .failure = $0 { true } else { false } },
      { if case .failure(let channel, let message) = $0 { (channel, message) } else { nil } },
      { shell, read in await run(shell, read.0, read.1) })
  }

  /// A command on a validation block (`validate { … }`).
  static func validation(
    _ kind: CommandKind, run: @escaping @Sendable (Shell, CheckedValidation) async -> Void
  ) -> Command {
    reading(
      kind, form: { if case .validation = $0 { true } else { false } },
      { if case .validation(let validation) = $0 { validation } else { nil } }, run)
  }

  /// A command on an expectation: `expect P == "ab|"`.
  static func expectation(
    _ kind: CommandKind, run: @escaping @Sendable (Shell, CheckedExpectation) async -> Void
  ) -> Command {
    reading(
      kind, form: { if case .expectation = $0 { true } else { false } },
      { if case .expectation(let expectation) = $0 { expectation } else { nil } }, run)
  }
}
