import PipeSyntax

extension Catalogue {
  /// `stream`: emits what 'send NAME …' yields into an AsyncStream; several consumers split it.
  public enum Stream: OperatorDefinition {
    public static let name = Parameter.positional("name", .name, "the stream's name")
    /// Kind `.value`, not `.count`: the word after the type is read here, where the message can say
    /// what a stream takes (a stream has no count of its own, and cannot be declared `throws`).
    public static let count = Parameter.positional(
      "n", .value, optional: true, words: [throwingWord], "how many elements newest or oldest keeps")
    static let throwingWord = "throws"
    public static let of = Parameter.labelled("of", .typeName, "the element type, where no send tells it")
    public static let buffering = Parameter.labelled(
      "buffering", .name,
      "unbounded (the default), newest N (a full buffer drops the oldest) or oldest N (it drops what comes)")

    public static let signature = OperatorSignature(
      .stream, .source, usage: "stream NAME [of: TYPE] [buffering: unbounded|newest N|oldest N]",
      summary:
        "emits what 'send NAME …' yields: send never waits, and a full buffer drops by its policy; several consumers split the elements",
      parameters: [name, count, of, buffering],
      example: "stream s of: Int buffering: newest 2 | work 1 | collect &\nsend s 1 2 3 4\nclose s\nwait",
      implementation: "AsyncStream.makeStream(of:bufferingPolicy:): send is the continuation's yield, close its finish",
      channel: .stream(name: name, of: of)
    ) { typing in
      let word = typing.name(buffering)
      let limit = typing.value(count)?.0
      if case .string(throwingWord)? = limit {
        typing.error(
          "a stream cannot fail (an AsyncStream finishes without an error): declare 'channel NAME of: TYPE throws' "
            + "to fail it later", at: count)
        return nil
      }
      switch (word, limit) {
      case (nil, nil), ("unbounded", nil): break
      case ("newest", .int(let limit)?), ("oldest", .int(let limit)?):
        guard limit >= 1 else {
          typing.error("a stream's buffer keeps at least 1 element, not \(limit)", at: count)
          return nil
        }
      case ("newest", _?), ("oldest", _?):
        typing.error("say how many elements '\(word ?? "")' keeps with an integer, 1 or more", at: count)
        return nil
      case ("newest", nil), ("oldest", nil):
        typing.error("say how many elements '\(word ?? "")' keeps, as in 'buffering: \(word ?? "") 2'", at: buffering)
        return nil
      case (let word?, _) where !StreamBuffering.words.contains(word):
        typing.error("unknown buffering '\(word)'; use unbounded, newest N or oldest N", at: buffering)
        return nil
      default:
        typing.error("a count belongs after 'buffering: newest' or 'buffering: oldest'", at: count)
        return nil
      }
      return nil
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .stream(name: try arguments.word(name), buffering: try arguments.buffering(buffering, count: count))
    }
  }
}
