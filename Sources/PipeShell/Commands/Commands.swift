import PipeSema

/// What every shell command does: a file per command in this folder. The grammar (form, usage,
/// summary) is the command's `CommandKind` in `PipeSema`.
public enum Commands {
  /// The command of `kind`: its run and its help example.
  static func entry(_ kind: CommandKind) -> Command {
    switch kind {
    case .jobs: Jobs.entry
    case .lint: Lint.entry
    case .top: Top.entry
    case .cancel: Cancel.entry
    case .wait: Wait.entry
    case .inspect: Inspect.entry
    case .tasks: Tasks.entry
    case .trace: Trace.entry
    case .replay: Replay.entry
    case .draw: Draw.entry
    case .explore: Explore.entry
    case .why: Why.entry
    case .compare: Compare.entry
    case .expect: Expect.entry
    case .check: Check.entry
    case .send: Send.entry
    case .close: Close.entry
    case .fail: FailChannel.entry
    case .sleep: Sleep.entry
    case .step: Step.entry
    case .run: Step.runEntry
    case .validate: Validate.entry
    case .swift: Swift.entry
    case .help: Help.entry
    case .ops: Ops.entry
    case .names: Names.entry
    case .load: Load.entry
    case .clock: Clock.entry
    case .stats: Stats.entry
    case .history: History.entry
    case .quit: Quit.entry
    case .exit: Quit.exitEntry
    }
  }

  /// The command a word names, if it names one (`help NAME`).
  static func named(_ name: String) -> Command? { CommandKind(rawValue: name).map(entry) }
}
