/// A run-time error of a job: which stage, and what went wrong. It ends the job, never the shell.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
  /// The stage as written, as `map { 10 / $0 }`.
  public let stage: String
  public let message: String
  /// The node that failed, when the error comes from a stage's own code (a closure).
  public let nodeID: Int?

  public init(stage: String, message: String, nodeID: Int? = nil) {
    self.stage = stage
    self.message = message
    self.nodeID = nodeID
  }

  public var description: String { "\(stage): \(message)" }
}
