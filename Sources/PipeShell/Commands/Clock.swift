import PipeSession

extension Commands {
  /// `clock real`, `clock virtual`: the clock of the pipelines started from now on; `clock` alone
  /// shows it.
  enum Clock {
    static let entry = Command.word(.clock) { shell, which in
      guard !which.isEmpty else {
        shell.console.line(shell.clockDescription)
        return
      }
      shell.engine.virtualTime = which == "virtual"
    }.example("clock virtual\ntimer 10m | take 2 | print time: true\nclock")
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
