import PipeSyntax

extension Catalogue {
  /// `chunked`: emits the elements of each interval, each run of neighbours a closure keeps
  /// together, or those between two elements of another pipeline, as an array.
  public enum Chunked: OperatorDefinition {
    public static let interval = Parameter.positional(
      "interval", .duration, optional: true, "the length of a chunk")
    public static let belongTogether = Parameter.positional(
      "belongTogether", .closure, optional: true,
      "whether $1 goes into the chunk that $0, the element before it, is in")
    public static let signal = Parameter.labelled(
      "by", .sequence, "a pipeline (a source first) each of whose elements ends the chunk; of any type")

    public static let signature = OperatorSignature(
      .chunked, .operator, usage: "chunked INTERVAL | chunked { e } | chunked by: (P)",
      summary:
        "emits the elements of each interval as an array; with a closure, each run of neighbours it is true for ($0 the element before, $1 the next); with by:, those before each element of another pipeline",
      parameters: [interval, belongTogether, signal],
      example: "timer 1 | take 7 | chunked by: (timer 2.4)",
      implementation: "chunked(by:) with a timer, a closure, or a signal sequence"
    ) { typing in
      let given = [interval, belongTogether, signal].filter { typing.has($0) }
      guard given.count == 1 else {
        if given.isEmpty {
          typing.error(
            "give an interval (chunked 3), a closure of $0 and $1 (chunked { $0 <= $1 }) or a signal (chunked by: (timer 1))"
          )
        } else if given.count == 2, !typing.has(signal) {
          typing.error("give an interval or a closure, not both", at: belongTogether)
        } else {
          typing.error(
            "give only one of an interval, a closure or a signal (by: (PIPELINE))", at: given[1])
        }
        return nil
      }
      if typing.has(belongTogether) {
        guard let closure = typing.closure(belongTogether, [typing.input, typing.input]) else { return nil }
        guard closure.type == .bool else {
          typing.report(SemaMessages.notBool("the closure of 'chunked'", closure.type, closure.range))
          return nil
        }
      }
      return .array(typing.input)
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      if let closure = arguments.optionalClosure(belongTogether) { return .chunked(by: .belongTogether(closure)) }
      if let sequence = try arguments.optionalSequence(signal) { return .chunked(by: .signal(sequence)) }
      return .chunked(by: .every(try arguments.interval(interval)))
    }
  }
}
