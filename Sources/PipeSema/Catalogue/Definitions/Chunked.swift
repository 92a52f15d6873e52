import PipeSyntax

extension Catalogue {
  /// `chunked`: emits the elements of each interval, or each run of neighbours a closure keeps
  /// together, as an array.
  public enum Chunked: OperatorDefinition {
    public static let interval = Parameter.positional(
      "interval", .duration, optional: true, "the length of a chunk")
    public static let belongTogether = Parameter.positional(
      "belongTogether", .closure, optional: true,
      "whether $1 goes into the chunk that $0, the element before it, is in")

    public static let signature = OperatorSignature(
      .chunked, .operator, usage: "chunked INTERVAL | chunked { e }",
      summary:
        "emits the elements of each interval as an array; with a closure, each run of neighbours it is true for ($0 the element before, $1 the next)",
      parameters: [interval, belongTogether],
      example: "timer 1 | take 7 | chunked 3", implementation: "chunked(by:) with a timer, or with a closure"
    ) { typing in
      switch (typing.has(interval), typing.has(belongTogether)) {
      case (true, false): return .array(typing.input)
      case (false, true):
        guard let closure = typing.closure(belongTogether, [typing.input, typing.input]) else { return nil }
        guard closure.type == .bool else {
          typing.report(SemaMessages.notBool("the closure of 'chunked'", closure.type, closure.range))
          return nil
        }
        return .array(typing.input)
      case (true, true):
        typing.error("give an interval or a closure, not both", at: belongTogether)
        return nil
      case (false, false):
        typing.error("give an interval (chunked 3) or a closure of $0 and $1 (chunked { $0 <= $1 })")
        return nil
      }
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      if let closure = arguments.optionalClosure(belongTogether) { return .chunked(by: .belongTogether(closure)) }
      return .chunked(by: .every(try arguments.interval(interval)))
    }
  }
}
