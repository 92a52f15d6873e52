/// Where jobs write their lines. The runtime writes through this and nothing else; the shell's
/// `Console` is the one that reaches the terminal, a pipe or a file.
public protocol JobOutput: Sendable {
  /// Writes one line of a job's output (a newline is added).
  func emit(_ line: String)
  /// Writes out what is buffered: called at every job's end.
  func flush()
}

/// Output nobody reads: a job whose printed lines another command judges (`expect … prints`).
public struct DiscardedOutput: JobOutput {
  public init() {}
  public func emit(_ line: String) {}
  public func flush() {}
}
