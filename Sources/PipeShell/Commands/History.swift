import PipeSession

extension Commands {
  /// `history`: the lines said in this session.
  enum History {
    static let entry = Command.bare(.history) { shell in
      let lines = shell.historyProvider?() ?? []
      for (index, line) in lines.enumerated() {
        shell.console.line(Format.padLeft(String(index + 1), 5) + "  " + line)
      }
    }.example("history", runs: false)
  }
}
