import PipeSyntax

extension Catalogue {
  /// `into`: sends every element into channel NAME.
  public enum Into: OperatorDefinition {
    public static let name = Parameter.positional("name", .name, "the channel's name")

    public static let signature = OperatorSignature(
      .into, .sink, usage: "into NAME", summary: "sends every element into channel NAME",
      parameters: [name],
      example: "channel numbers of: Int | print &\nfrom 1 2 | into numbers\nclose numbers\nwait",
      implementation: "AsyncChannel.send", channel: .sending(name: name), typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .into(name: try arguments.word(name))
    }
  }
}
