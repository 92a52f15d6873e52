import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `into`: sends every element into channel NAME.
  enum Into {
    static let entry = Operator(
      OperatorSignature(
        "into", .sink, usage: "into NAME", summary: "sends every element into channel NAME",
        parameters: [.positional("name", .name, "the channel's name")], example: "from 1 2 | into numbers",
        exampleRuns: false, implementation: "AsyncChannel.send", channel: .sending, typing: Typing.same),
      sink: { input in
        let channel = input.context.session.channel(try input.name("name"))
        return ForEach { value, output in
          await channel.send(value)
          output.emit(value, print: false)
        }
      })
  }
}
