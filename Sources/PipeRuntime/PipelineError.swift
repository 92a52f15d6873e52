/// A run-time error of a job: which stage, and what went wrong. It ends the job, never the shell.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
  /// The stage as written, as `map { 10 / $0 }`.
  public let stage: String
  public let message: String

  public init(stage: String, message: String) {
    self.stage = stage
    self.message = message
  }

  public var description: String { "\(stage): \(message)" }
}
