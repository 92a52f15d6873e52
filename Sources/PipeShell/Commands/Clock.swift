extension Commands {
  /// `clock real`, `clock virtual`: the clock of the pipelines started from now on.
  enum Clock {
    static let entry = Command.word(
      "clock", usage: "clock real | clock virtual", summary: "chooses the clock for pipelines started from now on",
      choices: ["real", "virtual"], missing: "say real or virtual"
    ) { shell, which in
      shell.virtualTime = which == "virtual"
    }.example("clock virtual\ntimer 10m | take 2 | print time: true")
  }
}
