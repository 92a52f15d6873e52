import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `into`: sends every element into channel NAME.
  enum Into {
    static func run(name: String) -> Run {
      .sink(
        { input in
          let name = name
          return IntoChannel(
            name: name, channel: input.context.channel(name), session: input.context.session, stage: input.stage.text,
            nodeID: input.nodeID)
        })
    }
  }
}

/// `into NAME`: each element waits until a consumer takes it. Once the channel is closed nothing
/// can take it (AsyncChannel's `send` returns at once), so the job fails instead of counting
/// elements that went nowhere.
struct IntoChannel: SinkBody {
  let name: String
  let channel: SessionChannel
  let session: Session
  let stage: String
  let nodeID: Int

  func receive(_ value: Value, _ output: SinkOutput) async throws -> Bool {
    guard !session.isEnded(channel) else { throw closed(value) }
    // Seen by lint and top while no consumer takes it.
    output.node.waits(since: output.context.sessionTime)
    output.recordSending(to: name)
    await channel.send(value)
    output.node.waits(since: nil)
    // `send` also returns when the channel ends meanwhile: then nobody took the value.
    guard !session.isEnded(channel) || Task.isCancelled else { throw closed(value) }
    // And when the job is cancelled while it waits: nobody took it, and it is not counted (nor
    // drawn, nor traced) as sent.
    if Task.isCancelled { throw CancellationError() }
    output.emit(value, print: false)
    return true
  }

  func end(_ how: SinkEnd, _ output: SinkOutput) {}

  private func closed(_ value: Value) -> PipelineError {
    PipelineError(
      stage: stage, message: "channel '\(name)' was closed: nothing can take \(value.debugText) any more",
      nodeID: nodeID)
  }
}
