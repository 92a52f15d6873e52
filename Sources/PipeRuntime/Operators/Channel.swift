import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `channel`: emits what 'send NAME …' pushes; several consumers split the values between them.
  /// `stream` and `subject` too: the session makes each name what it was declared as.
  enum Channel {
    static func run(name: String) -> Run {
      .node(
        build: { input in
          let channel = input.context.channel(name)
          input.detail.withLock { $0 = channel.implementation }
          if case .stream(let stream) = channel { input.streamLedger.withLock { $0 = stream.ledger } }
          return channel.elements(for: input.context.jobID, stage: input.stage.text, nodeID: input.nodeID)
        })
    }
  }
}
