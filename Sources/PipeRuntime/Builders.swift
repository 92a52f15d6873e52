import AsyncAlgorithms
import PipeSema

/// What a builder gets: the checked stage, its input(s) and the job.
struct StageInput {
  let stage: CheckedStage
  /// The upstream of an operator or sink; an empty sequence for sources.
  let upstream: ValueSequence
  /// The built inputs of a combinator.
  let inputs: [ValueSequence]
  let context: JobContext
  /// The id of the node being built.
  let nodeID: Int

  var clock: PipeClock { context.clock }

  func closure(_ name: String) -> CompiledClosure {
    guard case .closure(let expr) = stage.arguments[name] else { return { _, _ in .none } }
    return Evaluator(stage: stage.text, nodeID: nodeID).compile(expr)
  }

  func value(_ name: String) -> Value? {
    switch stage.arguments[name] {
    case .value(let value, _): value
    default: nil
    }
  }

  func int(_ name: String) -> Int? {
    if case .int(let value) = value(name) { return value }
    return nil
  }

  func double(_ name: String) -> Double? {
    switch value(name) {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  func string(_ name: String) -> String? {
    if case .string(let value) = value(name) { return value }
    return nil
  }

  func bool(_ name: String) -> Bool? {
    if case .bool(let value) = value(name) { return value }
    return nil
  }

  func duration(_ name: String) -> Duration? {
    if case .duration(let duration) = stage.arguments[name] { return duration }
    return nil
  }

  func name(_ name: String) -> String? {
    if case .name(let value) = stage.arguments[name] { return value }
    return nil
  }
}

/// Builds the node of one stage.
typealias Builder = @Sendable (StageInput) throws -> ValueSequence

/// The builders of every source, combinator and operator, by the name `Signatures` gives them.
/// Sinks are run by `Sinks`.
enum Builders {
  static let table: [String: Builder] = {
    var table: [String: Builder] = [:]
    for (name, builder) in sources { table[name] = builder }
    for (name, builder) in combinators { table[name] = builder }
    for (name, builder) in operators { table[name] = builder }
    for (name, builder) in timeOperators { table[name] = builder }
    return table
  }()

  static let sources: [(String, Builder)] = [
    (
      "timer",
      { input in
        let interval = input.duration("interval") ?? .seconds(1)
        return ValueSequence(TickCountSequence(timer: AsyncTimerSequence(interval: interval, clock: input.clock)))
      }
    ),
    (
      "range",
      { input in
        let from = input.value("from") ?? .int(0)
        let through = input.value("through") ?? .int(0)
        let by = input.value("by") ?? .int(1)
        if case .int(let a) = from, case .int(let b) = through, case .int(let step) = by {
          return ValueSequence(stride(from: a, through: b, by: step).async.map { Value.int($0) })
        }
        let a = input.double("from") ?? 0
        let b = input.double("through") ?? 0
        let step = input.double("by") ?? 1
        return ValueSequence(stride(from: a, through: b, by: step).async.map { Value.double($0) })
      }
    ),
    (
      "from",
      { input in
        guard case .values(let values, _) = input.stage.arguments["values"] else { return ValueSequence([].async) }
        return ValueSequence(values.async)
      }
    ),
    (
      "marble",
      { input in
        guard case .marble(let diagram) = input.stage.arguments["diagram"] else { return ValueSequence([].async) }
        return ValueSequence(
          MarbleSequence(
            diagram: diagram, tick: input.duration("tick") ?? .seconds(1), clock: input.clock, stage: input.stage.text))
      }
    ),
    (
      "random",
      { input in
        ValueSequence(
          RandomSequence(
            low: input.int("low") ?? 0, high: input.int("high") ?? 0, count: input.int("count"), seed: input.int("seed")
          ))
      }
    ),
    (
      "lines",
      { input in
        ValueSequence(
          LinesSequence(path: input.string("file") ?? "", stage: input.stage.text, driver: input.clock.driver))
      }
    ),
    (
      "stdin",
      { input in
        if input.context.session.terminalInputIsTheEditors.load(ordering: .relaxed) {
          throw PipelineError(
            stage: input.stage.text,
            message: "standard input is the terminal the shell reads; run 'pipesh < FILE' or use lines \"FILE\"")
        }
        return ValueSequence(LinesSequence(path: nil, stage: input.stage.text, driver: input.clock.driver))
      }
    ),
    (
      "channel",
      { input in
        ValueSequence(input.context.session.channel(input.name("name") ?? ""))
      }
    ),
    ("empty", { _ in ValueSequence([Value]().async) }),
    ("never", { _ in ValueSequence(NeverSequence()) }),
    (
      "fail",
      { input in
        ValueSequence(
          FailSequence(error: PipelineError(stage: input.stage.text, message: input.string("message") ?? "")))
      }
    ),
  ]

  static let combinators: [(String, Builder)] = [
    ("merge", { input in mergeAll(input.inputs) }),
    ("chain", { input in chainAll(input.inputs) }),
    (
      "zip",
      { input in
        let i = input.inputs
        if i.count == 3 { return ValueSequence(zip(i[0], i[1], i[2]).map { Value.tuple([$0, $1, $2]) }) }
        return ValueSequence(zip(i[0], i[1]).map { Value.tuple([$0, $1]) })
      }
    ),
    (
      "combineLatest",
      { input in
        let i = input.inputs
        if i.count == 3 {
          return ValueSequence(combineLatest(i[0], i[1], i[2]).map { Value.tuple([$0, $1, $2]) })
        }
        return ValueSequence(combineLatest(i[0], i[1]).map { Value.tuple([$0, $1]) })
      }
    ),
  ]

  /// `merge` of any number of inputs: AsyncAlgorithms' merge of two or three, nested beyond.
  static func mergeAll(_ inputs: [ValueSequence]) -> ValueSequence {
    switch inputs.count {
    case 0: return ValueSequence([Value]().async)
    case 1: return inputs[0]
    case 2: return ValueSequence(merge(inputs[0], inputs[1]))
    case 3: return ValueSequence(merge(inputs[0], inputs[1], inputs[2]))
    default: return ValueSequence(merge(inputs[0], inputs[1], mergeAll(Array(inputs[2...]))))
    }
  }

  /// `chain` of any number of inputs, nested the same way.
  static func chainAll(_ inputs: [ValueSequence]) -> ValueSequence {
    switch inputs.count {
    case 0: return ValueSequence([Value]().async)
    case 1: return inputs[0]
    case 2: return ValueSequence(chain(inputs[0], inputs[1]))
    case 3: return ValueSequence(chain(inputs[0], inputs[1], inputs[2]))
    default: return ValueSequence(chain(inputs[0], inputs[1], chainAll(Array(inputs[2...]))))
    }
  }

  static let operators: [(String, Builder)] = [
    (
      "map",
      { input in
        let transform = input.closure("transform")
        return ValueSequence(input.upstream.map { value throws in try transform(value, .none) })
      }
    ),
    (
      "filter",
      { input in
        let predicate = input.closure("isIncluded")
        return ValueSequence(input.upstream.filter { value throws in try predicate(value, .none) == .bool(true) })
      }
    ),
    (
      "compactMap",
      { input in
        let transform = input.closure("transform")
        return ValueSequence(
          input.upstream.compactMap { value throws -> Value? in
            let result = try transform(value, .none)
            return result == .none ? nil : result
          })
      }
    ),
    ("take", { input in ValueSequence(input.upstream.prefix(input.int("count") ?? 0)) }),
    ("drop", { input in ValueSequence(input.upstream.dropFirst(input.int("count") ?? 0)) }),
    (
      "takeWhile",
      { input in
        let predicate = input.closure("predicate")
        return ValueSequence(try input.upstream.prefix { value throws in try predicate(value, .none) == .bool(true) })
      }
    ),
    (
      "dropWhile",
      { input in
        let predicate = input.closure("predicate")
        return ValueSequence(input.upstream.drop { value throws in try predicate(value, .none) == .bool(true) })
      }
    ),
    (
      "compacted",
      { input in
        ValueSequence(input.upstream.map { $0 == .none ? nil : $0 }.compacted())
      }
    ),
    ("removeDuplicates", { input in ValueSequence(input.upstream.removeDuplicates()) }),
    ("interspersed", { input in ValueSequence(input.upstream.interspersed(with: input.value("separator") ?? .none)) }),
    ("adjacentPairs", { input in ValueSequence(input.upstream.adjacentPairs().map { Value.tuple([$0.0, $0.1]) }) }),
    (
      "reductions",
      { input in
        let next = input.closure("next")
        if let initial = input.value("initial") {
          return ValueSequence(
            input.upstream.reductions(initial) { result, element throws in try next(result, element) })
        }
        return ValueSequence(input.upstream.reductions { result, element throws in try next(result, element) })
      }
    ),
    (
      "chunks",
      { input in
        let count = max(1, input.int("count") ?? 1)
        if let every = input.duration("every") {
          let timer = AsyncTimerSequence(interval: every, clock: input.clock)
          return ValueSequence(input.upstream.chunks(ofCount: count, or: timer).map { Value.array($0) })
        }
        return ValueSequence(input.upstream.chunks(ofCount: count).map { Value.array($0) })
      }
    ),
    (
      "buffer",
      { input in
        let policy: AsyncBufferSequencePolicy
        switch (input.value("size"), input.name("policy")) {
        case (.int(let size)?, "newest"): policy = .bufferingLatest(size)
        case (.int(let size)?, "oldest"): policy = .bufferingOldest(size)
        case (.int(let size)?, _): policy = .bounded(size)
        default: policy = .unbounded
        }
        return ValueSequence(CancellingWhenDropped(base: input.upstream.buffer(policy: policy)))
      }
    ),
    ("share", { input in ValueSequence(StoppableShare(upstream: input.upstream)) }),
    ("enumerated", { input in ValueSequence(EnumeratedSequence(base: input.upstream)) }),
    (
      "tap",
      { input in
        ValueSequence(TapSequence(base: input.upstream, label: input.string("label") ?? "", context: input.context))
      }
    ),
  ]

  static let timeOperators: [(String, Builder)] = [
    (
      "throttle",
      { input in
        ValueSequence(
          input.upstream._throttle(
            for: input.duration("interval") ?? .seconds(1), clock: input.clock, latest: input.bool("latest") ?? true))
      }
    ),
    (
      "debounce",
      { input in
        ValueSequence(input.upstream.debounce(for: input.duration("interval") ?? .seconds(1), clock: input.clock))
      }
    ),
    (
      "chunked",
      { input in
        let timer = AsyncTimerSequence(interval: input.duration("interval") ?? .seconds(1), clock: input.clock)
        return ValueSequence(input.upstream.chunked(by: timer).map { Value.array($0) })
      }
    ),
    (
      "delay",
      { input in
        let clock = input.clock
        let stamped = input.upstream.map { value in (clock.now, value) }.buffer(policy: .unbounded)
        return ValueSequence(
          CancellingWhenDropped(
            base: DelaySequence(base: stamped, interval: input.duration("interval") ?? .seconds(1), clock: clock)))
      }
    ),
    (
      "timeout",
      { input in
        ValueSequence(
          TimeoutSequence(
            base: input.upstream, interval: input.duration("interval") ?? .seconds(1), clock: input.clock,
            stage: input.stage.text))
      }
    ),
  ]
}
