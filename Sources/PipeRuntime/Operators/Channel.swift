import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `channel`: emits what 'send NAME …' pushes; several consumers split the values between them.
  enum Channel {
    static let entry = Operator(
      OperatorSignature(
        "channel", .source, usage: "channel NAME [of: TYPE] [throws]",
        summary: "emits what 'send NAME …' pushes; several consumers split the values between them",
        parameters: [
          .positional("name", .name, "the channel's name"),
          .labelled("of", .typeName, "the element type, where no send or into tells it"),
          .positional(
            "throws", .name, optional: true,
            "an AsyncThrowingChannel from the start, so that 'fail NAME \"…\"' can end it later (at the prompt)"),
        ],
        example: "channel jobs | take 2 &", exampleRuns: false,
        implementation:
          "AsyncChannel; AsyncThrowingChannel when declared throws or some statement fails it (fail NAME \"…\")",
        channel: .receiving
      ) { typing in
        nil
      },
      build: { input in
        let channel = input.context.channel(try input.name("name"))
        input.detail.withLock { $0 = channel.implementation }
        return channel.elements
      })
  }
}
