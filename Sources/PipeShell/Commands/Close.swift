import PipeSession

extension Commands {
  /// `close NAME`: finishes a channel; its consumers end once they have taken what was sent.
  enum Close {
    static let entry = Command.word(.close) { shell, name in
      let session = shell.engine.session
      await shell.engine.changeWorld { session.close(name) }
    }.example("channel c of: Int | count &\nsend c 1 2 3\nclose c\nwait")
  }
}
