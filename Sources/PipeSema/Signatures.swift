import PipeSyntax

/// Every source, combinator, operator and sink pipesh knows, in the order `ops` lists them.
public enum Signatures {
  public static let all: [OperatorSignature] = sources + combinators + operators + sinks

  public static let byName: [String: OperatorSignature] = {
    var table: [String: OperatorSignature] = [:]
    for signature in all { table[signature.name] = signature }
    table["scan"] = table["reductions"]
    return table
  }()

  /// Names `help` and completion know, aliases included.
  public static var names: [String] { all.map(\.name) + ["scan"] }

  private static func same(_ typing: inout StageTyping) -> ValueType? { typing.input }

  // MARK: sources

  static let sources: [OperatorSignature] = [
    OperatorSignature(
      "timer", .source, usage: "timer INTERVAL",
      summary: "emits 0, 1, 2, … one per interval, the first after one interval",
      parameters: [.positional("interval", .duration, "the time between ticks: 250ms, 1.5s, or seconds")],
      example: "timer 1 | take 3", implementation: "AsyncTimerSequence on the job's clock"
    ) { typing in
      .int
    },
    OperatorSignature(
      "range", .source, usage: "range A B [by: S]", summary: "emits A through B inclusive, by steps of S (default 1)",
      parameters: [
        .positional("from", .number, "the first value"), .positional("through", .number, "the last value"),
        .labelled("by", .number, "the step; negative counts down"),
      ],
      example: "range 1 10 by: 3", implementation: "stride(from:through:by:).async"
    ) { typing in
      let types = ["from", "through", "by"].compactMap { typing.value($0)?.1 }
      if case .value(let step, _) = typing.checked["by"], step == .int(0) || step == .double(0) {
        typing.error("the step cannot be 0", at: "by")
        return nil
      }
      return types.contains(.double) ? .double : .int
    },
    OperatorSignature(
      "from", .source, usage: "from V…", summary: "emits the given values, in order, and finishes",
      parameters: [.positional("values", .value, repeats: true, "numbers, strings, Bools, nil, arrays or tuples")],
      example: "from 1 2 3", implementation: "[V].async"
    ) { typing in
      guard case .values(_, let type) = typing.checked["values"] else {
        typing.error("give at least one value, as in 'from 1 2 3'")
        return nil
      }
      return type
    },
    OperatorSignature(
      "marble", .source, usage: "marble \"DIAGRAM\" [tick: D]",
      summary: "emits a marble diagram's values as strings, one step per tick (default 1s)",
      parameters: [
        .positional("diagram", .string, "- a step, a or 'text' a value, [ab] together, | finish, ^ fail, ; cancel"),
        .labelled("tick", .duration, "the length of one step"),
      ],
      example: "marble \"ab-c|\" | diagram", implementation: "own (MarbleSequence), on the job's clock"
    ) { typing in
      guard case .value(.string(let text), _) = typing.checked["diagram"] else { return nil }
      switch MarbleDiagram.parse(text) {
      case .success(let diagram):
        typing.set("diagram", .marble(diagram))
        return .string
      case .failure(let problem):
        let base = typing.range(of: "diagram").start + 1
        typing.diagnostics.append(
          Diagnostic(
            id: "bad-diagram", message: "marble: \(problem.message)",
            range: SourceRange(base + problem.offset, base + problem.offset + problem.length), notes: [problem.note]))
        return nil
      }
    },
    OperatorSignature(
      "random", .source, usage: "random LO HI [count: N] [seed: S]",
      summary: "emits random integers in LO…HI, forever or N of them; a seed makes them repeatable",
      parameters: [
        .positional("low", .int, "the smallest value"), .positional("high", .int, "the largest value"),
        .labelled("count", .count, "how many (default: no end)"),
        .labelled("seed", .int, "a seed for repeatable values"),
      ],
      example: "random 1 6 count: 5 seed: 42", implementation: "own (RandomSequence, SplitMix64 when seeded)"
    ) { typing in
      if let low = typing.int("low"), let high = typing.int("high"), low > high {
        typing.error("LO (\(low)) must not be larger than HI (\(high))", at: "high")
        return nil
      }
      return .int
    },
    OperatorSignature(
      "lines", .source, usage: "lines \"FILE\"", summary: "emits the lines of a text file",
      parameters: [.positional("file", .string, "the path of the file")],
      example: "lines \"notes.txt\" | count", exampleRuns: false, implementation: "own (LinesSequence), real file reads"
    ) { typing in
      .string
    },
    OperatorSignature(
      "stdin", .source, usage: "stdin", summary: "emits the lines of standard input",
      example: "stdin | map { $0.count }", exampleRuns: false, implementation: "own (LinesSequence on fd 0)"
    ) { typing in
      .string
    },
    OperatorSignature(
      "channel", .source, usage: "channel NAME [of: TYPE]",
      summary: "emits what 'send NAME …' pushes; several consumers split the values between them",
      parameters: [
        .positional("name", .name, "the channel's name"),
        .labelled("of", .typeName, "the element type, where no send or into tells it"),
      ],
      example: "channel jobs | take 2 &", exampleRuns: false, implementation: "AsyncChannel"
    ) { typing in
      nil
    },
    OperatorSignature(
      "empty", .source, usage: "empty", summary: "emits nothing and finishes", example: "empty | count",
      implementation: "[].async"
    ) { typing in
      .never
    },
    OperatorSignature(
      "never", .source, usage: "never", summary: "emits nothing and never finishes (until cancelled)",
      example: "never | timeout 2", implementation: "own (NeverSequence)"
    ) { typing in
      .never
    },
    OperatorSignature(
      "fail", .source, usage: "fail \"MSG\"", summary: "fails at once with the message",
      parameters: [.positional("message", .string, "the error message")], example: "fail \"boom\"",
      implementation: "own (FailSequence)"
    ) { typing in
      .never
    },
  ]

  // MARK: combinators

  private static func unifyInputs(_ typing: inout StageTyping) -> ValueType? {
    var type = ValueType.never
    for input in typing.inputs {
      guard let joined = ValueType.join(type, input) else {
        typing.error("inputs have different element types '\(type)' and '\(input)'")
        return nil
      }
      type = joined
    }
    return type
  }

  static let combinators: [OperatorSignature] = [
    OperatorSignature(
      "merge", .combinator, usage: "merge(P, P, …)", summary: "emits the elements of all inputs as they come",
      inputs: 2...16, example: "merge(timer 1 | map { $0 * 10 } | take 2, timer 1.5 | take 2)",
      implementation: "merge (nested beyond three)", typing: unifyInputs),
    OperatorSignature(
      "zip", .combinator, usage: "zip(P, P[, P])", summary: "emits tuples, pairing the inputs' elements in order",
      inputs: 2...3, example: "zip(from 1 2 3, from \"a\" \"b\")", implementation: "zip"
    ) { typing in
      .tuple(typing.inputs)
    },
    OperatorSignature(
      "combineLatest", .combinator, usage: "combineLatest(P, P[, P])",
      summary: "emits a tuple of the latest element of each input whenever one changes", inputs: 2...3,
      example: "combineLatest(timer 1 | take 3, timer 2 | take 2)", implementation: "combineLatest"
    ) { typing in
      .tuple(typing.inputs)
    },
    OperatorSignature(
      "chain", .combinator, usage: "chain(P, P, …)", summary: "emits all of the first input, then all of the next…",
      inputs: 2...16, example: "chain(from 1 2, from 3 4)", implementation: "chain (nested beyond three)",
      typing: unifyInputs),
  ]

  // MARK: operators

  static let operators: [OperatorSignature] = [
    OperatorSignature(
      "map", .operator, usage: "map { e }", summary: "transforms each element",
      parameters: [.positional("transform", .closure, "the new element, from $0")],
      example: "from 1 2 3 | map { $0 * 10 }", implementation: "map (standard library)"
    ) { typing in
      typing.closure("transform", [typing.input])?.type
    },
    OperatorSignature(
      "filter", .operator, usage: "filter { e }", summary: "passes on the elements for which the closure is true",
      parameters: [.positional("isIncluded", .closure, "a Bool, from $0")],
      example: "range 1 10 | filter { $0 % 3 == 0 }", implementation: "filter (standard library)"
    ) { typing in
      predicate(&typing, "isIncluded")
    },
    OperatorSignature(
      "compactMap", .operator, usage: "compactMap { e }", summary: "transforms each element, dropping nil results",
      parameters: [.positional("transform", .closure, "an optional new element, from $0")],
      example: "from \"1\" \"x\" \"3\" | compactMap { int($0) }", implementation: "compactMap (standard library)"
    ) { typing in
      typing.closure("transform", [typing.input])?.type.unwrapped
    },
    OperatorSignature(
      "take", .operator, usage: "take N", summary: "passes on the first N elements, then finishes",
      parameters: [.positional("count", .count, "how many")], example: "timer 1 | take 3",
      implementation: "prefix(_:)", typing: same),
    OperatorSignature(
      "drop", .operator, usage: "drop N", summary: "drops the first N elements, passes on the rest",
      parameters: [.positional("count", .count, "how many")], example: "from 1 2 3 4 | drop 2",
      implementation: "dropFirst(_:)", typing: same),
    OperatorSignature(
      "takeWhile", .operator, usage: "takeWhile { e }", summary: "passes on elements while the closure is true",
      parameters: [.positional("predicate", .closure, "a Bool, from $0")],
      example: "range 1 10 | takeWhile { $0 < 4 }", implementation: "prefix(while:)"
    ) { typing in
      predicate(&typing, "predicate")
    },
    OperatorSignature(
      "dropWhile", .operator, usage: "dropWhile { e }", summary: "drops elements while the closure is true",
      parameters: [.positional("predicate", .closure, "a Bool, from $0")],
      example: "range 1 6 | dropWhile { $0 < 4 }", implementation: "drop(while:)"
    ) { typing in
      predicate(&typing, "predicate")
    },
    OperatorSignature(
      "compacted", .operator, usage: "compacted", summary: "drops nil elements and unwraps the rest",
      example: "from 1 nil 3 | compacted", implementation: "compacted()"
    ) { typing in
      guard typing.input.isOptional else {
        typing.error("its input must be optional, but it is '\(typing.input)'")
        return nil
      }
      return typing.input.unwrapped
    },
    OperatorSignature(
      "throttle", .operator, usage: "throttle INTERVAL [latest: Bool]",
      summary: "emits at most one element per interval: the latest (default) or the first of each window",
      parameters: [
        .positional("interval", .durationOrZero, "the window"),
        .labelled("latest", .bool, "true: the latest element of a window; false: the first"),
      ],
      example: "timer 1 | take 10 | throttle 3", implementation: "_throttle(for:clock:latest:)", typing: same),
    OperatorSignature(
      "debounce", .operator, usage: "debounce INTERVAL",
      summary: "emits an element once no newer one came for the interval",
      parameters: [.positional("interval", .durationOrZero, "the quiet time")],
      example: "marble \"ab-c---d|\" | debounce 2", implementation: "debounce(for:clock:)", typing: same),
    OperatorSignature(
      "removeDuplicates", .operator, usage: "removeDuplicates",
      summary: "drops an element equal to the one before it", example: "from 1 1 2 2 1 | removeDuplicates",
      implementation: "removeDuplicates()", typing: same),
    OperatorSignature(
      "interspersed", .operator, usage: "interspersed V", summary: "emits V between each two elements",
      parameters: [.positional("separator", .value, "a value of the element type")],
      example: "from 1 2 3 | interspersed 0", implementation: "interspersed(with:)"
    ) { typing in
      guard let (_, type) = typing.value("separator") else { return nil }
      guard let joined = ValueType.join(typing.input, type), joined == typing.input || typing.input == .never else {
        typing.error("the separator is '\(type)' but the elements are '\(typing.input)'", at: "separator")
        return nil
      }
      return typing.input == .never ? type : typing.input
    },
    OperatorSignature(
      "adjacentPairs", .operator, usage: "adjacentPairs", summary: "emits each element paired with the one before it",
      example: "from 1 2 3 4 | adjacentPairs", implementation: "adjacentPairs()"
    ) { typing in
      .tuple([typing.input, typing.input])
    },
    OperatorSignature(
      "reductions", .operator, usage: "reductions [INIT] { e }  (alias scan)",
      summary: "emits each running result of combining $0 (the result so far) with $1 (the element)",
      parameters: [
        .positional("initial", .value, optional: true, "the first result; without it, the first element"),
        .positional("next", .closure, "the next result, from $0 and $1"),
      ],
      example: "range 1 5 | reductions 0 { $0 + $1 }", implementation: "reductions(_:_:) / reductions(_:)"
    ) { typing in
      accumulate(&typing)
    },
    OperatorSignature(
      "chunks", .operator, usage: "chunks N [every: INTERVAL]",
      summary: "emits arrays of N elements (or fewer, when the interval ends first or the input ends)",
      parameters: [
        .positional("count", .count, "the size of a chunk"),
        .labelled("every", .duration, "also end a chunk this often"),
      ],
      example: "range 1 7 | chunks 3", implementation: "chunks(ofCount:) / chunks(ofCount:or:) with a timer"
    ) { typing in
      if typing.int("count") == 0 {
        typing.error("a chunk needs at least 1 element", at: "count")
        return nil
      }
      return .array(typing.input)
    },
    OperatorSignature(
      "chunked", .operator, usage: "chunked INTERVAL", summary: "emits the elements of each interval as an array",
      parameters: [.positional("interval", .duration, "the length of a chunk")],
      example: "timer 1 | take 7 | chunked 3", implementation: "chunked(by:) with a timer"
    ) { typing in
      .array(typing.input)
    },
    OperatorSignature(
      "buffer", .operator, usage: "buffer N [policy: bounded|newest|oldest] | buffer unbounded",
      summary: "lets the input run ahead of a slow consumer by up to N elements",
      parameters: [
        .positional("size", .value, "how many elements, or unbounded"),
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
      default: typing.error("the size must be a number, or unbounded", at: "size")
      }
      return nil
    },
    OperatorSignature(
      "share", .operator, usage: "share",
      summary: "lets several consumers iterate one upstream; in a let fragment, every use sees the same elements",
      example: "from 1 2 3 | share", implementation: "share(bufferingPolicy: .unbounded)", typing: same),
    OperatorSignature(
      "enumerated", .operator, usage: "enumerated", summary: "emits (index, element) tuples, counting from 0",
      example: "from \"a\" \"b\" | enumerated", implementation: "own (EnumeratedSequence)"
    ) { typing in
      .tuple([.int, typing.input])
    },
    OperatorSignature(
      "delay", .operator, usage: "delay INTERVAL", summary: "passes each element on INTERVAL after it arrived",
      parameters: [.positional("interval", .duration, "the delay")], example: "from 1 2 | delay 1 | print time: true",
      implementation: "own (DelaySequence), on the job's clock", typing: same),
    OperatorSignature(
      "timeout", .operator, usage: "timeout INTERVAL", summary: "fails the job when no element came for INTERVAL",
      parameters: [.positional("interval", .duration, "the longest wait")], example: "never | timeout 2",
      implementation: "own (TimeoutSequence), on the job's clock", typing: same),
    OperatorSignature(
      "tap", .operator, usage: "tap \"LABEL\"",
      summary: "prints 'LABEL: value', 'LABEL: finished', 'LABEL: cancelled'… and passes everything on",
      parameters: [.positional("label", .string, "the label")], example: "from 1 2 | tap \"seen\" | drain",
      implementation: "own (TapSequence)", typing: same),
  ]

  private static func predicate(_ typing: inout StageTyping, _ parameter: String) -> ValueType? {
    guard let closure = typing.closure(parameter, [typing.input]) else { return nil }
    guard closure.type == .bool else {
      typing.diagnostics.append(SemaMessages.notBool("the closure of '\(typing.name)'", closure.type, closure.range))
      return nil
    }
    return typing.input
  }

  /// Types `reductions` and `reduce`: the result type is INIT's (or the element's), widened to
  /// Double where the closure yields a Double.
  private static func accumulate(_ typing: inout StageTyping) -> ValueType? {
    var resultType = typing.value("initial")?.1 ?? typing.input
    if case .optional(.never) = resultType {
      typing.error("give the initial value a type: nil alone has none", at: "initial")
      return nil
    }
    for _ in 0..<2 {
      guard let closure = typing.closure("next", [resultType, typing.input]) else { return nil }
      if closure.type == resultType { return resultType }
      guard let joined = ValueType.join(resultType, closure.type), joined != resultType,
        typing.has("initial") || joined == typing.input
      else {
        let message = "the closure gives '\(closure.type)' but the result so far ($0) is '\(resultType)'"
        typing.diagnostics.append(SemaMessages.elementMismatch(typing.name, message, closure.range))
        return nil
      }
      if let (value, _) = typing.value("initial") {
        typing.set("initial", .value(convert(value, to: joined), joined))
      }
      resultType = joined
    }
    return resultType
  }

  // MARK: sinks

  static let sinks: [OperatorSignature] = [
    OperatorSignature(
      "print", .sink, usage: "print [label: S] [time: Bool]",
      summary: "prints every element (added when a pipeline ends without a sink)",
      parameters: [
        .labelled("label", .string, "a prefix, printed as 'label: value'"),
        .labelled("time", .bool, "prefix the job's elapsed time, as +1.500s"),
      ],
      example: "timer 0.5 | take 2 | print time: true", implementation: "own sink", typing: same),
    OperatorSignature(
      "count", .sink, usage: "count", summary: "prints how many elements came, when the input ends",
      example: "range 1 100 | filter { $0 % 7 == 0 } | count", implementation: "own sink"
    ) { _ in
      .int
    },
    OperatorSignature(
      "sum", .sink, usage: "sum", summary: "prints the sum of the elements, when the input ends",
      example: "range 1 100 | sum", implementation: "own sink"
    ) { typing in
      guard typing.input.isNumeric else {
        typing.error("its input must be Int or Double, but it is '\(typing.input)'")
        return nil
      }
      return typing.input == .never ? .int : typing.input
    },
    OperatorSignature(
      "min", .sink, usage: "min", summary: "prints the smallest element (nil for none), when the input ends",
      example: "from 3 1 2 | min", implementation: "own sink"
    ) { typing in
      comparable(&typing)
    },
    OperatorSignature(
      "max", .sink, usage: "max", summary: "prints the largest element (nil for none), when the input ends",
      example: "from 3 1 2 | max", implementation: "own sink"
    ) { typing in
      comparable(&typing)
    },
    OperatorSignature(
      "first", .sink, usage: "first", summary: "prints the first element (nil for none) and stops its input",
      example: "timer 1 | first", implementation: "own sink"
    ) { typing in
      .optional(typing.input)
    },
    OperatorSignature(
      "last", .sink, usage: "last", summary: "prints the last element (nil for none), when the input ends",
      example: "from 1 2 3 | last", implementation: "own sink"
    ) { typing in
      .optional(typing.input)
    },
    OperatorSignature(
      "collect", .sink, usage: "collect", summary: "prints all elements as one array, when the input ends",
      example: "range 1 5 | collect", implementation: "own sink"
    ) { typing in
      .array(typing.input)
    },
    OperatorSignature(
      "reduce", .sink, usage: "reduce INIT { e }",
      summary: "combines $0 (the result so far) with each element $1 and prints the result",
      parameters: [
        .positional("initial", .value, "the first result"),
        .positional("next", .closure, "the next result, from $0 and $1"),
      ],
      example: "range 1 5 | reduce 1 { $0 * $1 }", implementation: "own sink"
    ) { typing in
      accumulate(&typing)
    },
    OperatorSignature(
      "drain", .sink, usage: "drain", summary: "consumes every element silently", example: "range 1 1000 | drain",
      implementation: "own sink", typing: same),
    OperatorSignature(
      "diagram", .sink, usage: "diagram [tick: D]",
      summary: "prints the output as one marble line when the input ends (column N: tick N)",
      parameters: [.labelled("tick", .duration, "the length of one column (default 1s)")],
      example: "timer 1 | take 3 | diagram", implementation: "own sink", typing: same),
    OperatorSignature(
      "into", .sink, usage: "into NAME", summary: "sends every element into channel NAME",
      parameters: [.positional("name", .name, "the channel's name")], example: "from 1 2 | into numbers",
      exampleRuns: false, implementation: "AsyncChannel.send", typing: same),
  ]

  private static func comparable(_ typing: inout StageTyping) -> ValueType? {
    guard typing.input.isComparable else {
      typing.error("its input must be Int, Double or String, but it is '\(typing.input)'")
      return nil
    }
    return .optional(typing.input)
  }
}
