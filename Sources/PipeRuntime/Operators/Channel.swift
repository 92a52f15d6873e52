import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `channel`: emits what 'send NAME …' pushes; several consumers split the values between them.
  enum Channel {
    static func run(name: String) -> Run {
      .node(
        build: { input in
          let channel = input.context.channel(name)
          input.detail.withLock { $0 = channel.implementation }
          return channel.elements
        })
    }
  }
}
