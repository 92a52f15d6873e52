import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `buffer`: lets the input run ahead of a slow consumer by up to N elements.
  enum Buffer {
    static let entry = Operator(
      OperatorSignature(
        "buffer", .operator, usage: "buffer N [policy: bounded|newest|oldest] | buffer unbounded",
        summary: "lets the input run ahead of a slow consumer by up to N elements",
        parameters: [
          .positional("size", .value, words: ["unbounded"], "how many elements, or unbounded"),
          .labelled("policy", .name, "bounded (wait when full, the default), newest or oldest (drop when full)"),
        ],
        example: "range 1 5 | buffer 2", implementation: "buffer(policy:)"
      ) { typing in
        let policy = typing.name("policy") ?? "bounded"
        guard ["bounded", "newest", "oldest"].contains(policy) else {
          typing.error("unknown policy '\(policy)'; use bounded, newest or oldest", at: "policy")
          return nil
        }
        switch typing.value("size")?.0 {
        case .int(let size) where size >= 1: return typing.input
        case .string("unbounded"): return typing.input
        case .int: typing.error("the size must be at least 1", at: "size")
        case nil where typing.isDeferred("size"): return typing.input
        default: typing.error("the size must be a number, or unbounded", at: "size")
        }
        return nil
      },
      build: { input in
        let policy: AsyncBufferSequencePolicy
        switch (try input.value("size"), input.optionalName("policy") ?? "bounded") {
        case (.int(let size), "newest"): policy = .bufferingLatest(size)
        case (.int(let size), "oldest"): policy = .bufferingOldest(size)
        case (.int(let size), "bounded"): policy = .bounded(size)
        case (.string("unbounded"), _): policy = .unbounded
        case (let size, let name): throw input.bug("no buffer of size \(size.printed) with policy \(name)")
        }
        return ValueSequence(CancellingWhenDropped(base: input.upstream.buffer(policy: policy)))
      })
  }
}
