import PipeSession

extension Commands {
  /// `quit`, `exit`: leave; running jobs are cancelled.
  enum Quit {
    static let entry = Command.bare(.quit) { shell in
      shell.engine.setQuit()
    }.example("from 1 | print\nquit\nfrom 2 | print")
    static let exitEntry = Command.bare(.exit) { shell in
      shell.engine.setQuit()
    }.example("from 1 | print\nexit\nfrom 2 | print")
  }
}
