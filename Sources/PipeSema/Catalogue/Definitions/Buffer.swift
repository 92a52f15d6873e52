import PipeSyntax

extension Catalogue {
  /// `buffer`: lets the input run ahead of a slow consumer by up to N elements.
  public enum Buffer: OperatorDefinition {
    public static let size = Parameter.positional(
      "size", .value, words: [BufferSize.unboundedWord], "how many elements, or unbounded")
    public static let policy = Parameter.labelled(
      "policy", .name, "bounded (wait when full, the default), newest or oldest (drop when full)")

    public static let signature = OperatorSignature(
      .buffer, .operator, usage: "buffer N [policy: bounded|newest|oldest] | buffer unbounded",
      summary: "lets the input run ahead of a slow consumer by up to N elements",
      parameters: [size, policy],
      example: "range 1 5 | buffer 2", implementation: "buffer(policy:)"
    ) { typing in
      if let word = typing.name(policy), BufferPolicy(rawValue: word) == nil {
        typing.error("unknown policy '\(word)'; use bounded, newest or oldest", at: policy)
        return nil
      }
      switch typing.value(size)?.0 {
      // 0 is AA's too: `bufferingOldest(0)` holds nothing and passes elements straight through.
      case .int(let count) where count >= 0: return typing.input
      case .string(BufferSize.unboundedWord): return typing.input
      case .int: typing.error("the size must be 0 or more", at: size)
      case nil where typing.isDeferred(size): return typing.input
      default: typing.error("the size must be a number, or unbounded", at: size)
      }
      return nil
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .buffer(size: try arguments.size(size), policy: try arguments.word(policy, default: BufferPolicy.bounded))
    }
  }
}
