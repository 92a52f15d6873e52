import OpenCombine
import PipeRuntime
import PipeSema

extension Counterparts {
  /// The combinators: OpenCombine's `Zip` and `append`; `Merge` and `CombineLatest`, which
  /// OpenCombine 0.14.0 lacks, are pipesh's own.
  static let combinators: [Counterpart] = [
    Counterpart("merge", "Publishers.MergeMany", origin: .own) { input in
      MergeMany(input.unifiedInputs).eraseToAnyPublisher()
    },
    Counterpart("zip", "Publishers.Zip / Zip3") { input in
      let i = input.inputs
      switch i.count {
      case 2: return Publishers.Zip(i[0], i[1]).map { Value.tuple([$0, $1]) }.eraseToAnyPublisher()
      case 3: return Publishers.Zip3(i[0], i[1], i[2]).map { Value.tuple([$0, $1, $2]) }.eraseToAnyPublisher()
      default: throw input.bug("\(i.count) inputs for zip")
      }
    },
    Counterpart(
      "combineLatest", "Publishers.CombineLatest / CombineLatest3", origin: .own,
      differs: "AA finishes as soon as an input finishes without an element; Combine once all inputs have finished"
    ) { input in
      CombineLatestMany(input.inputs).map { Value.tuple($0) }.eraseToAnyPublisher()
    },
    Counterpart(
      "chain", "append(_:) (Publishers.Concatenate)",
      differs: "Combine subscribes to the next publisher when the one before finishes (its time starts then)"
    ) { input in
      let inputs = input.unifiedInputs
      guard let first = inputs.first else { throw input.bug("no inputs for chain") }
      return inputs.dropFirst().reduce(first) { $0.append($1).eraseToAnyPublisher() }
    },
  ]

  /// The operators: each OpenCombine's own, with pipesh's closures inside `try…` variants (a
  /// closure's error fails the publisher, as it fails the AA node).
  static let operators: [Counterpart] = [
    Counterpart("map", "tryMap(_:)") { input in
      let transform = try input.closure("transform")
      return input.upstream.tryMap { try transform($0, .none) }.eraseToAnyPublisher()
    },
    Counterpart("filter", "tryFilter(_:)") { input in
      let predicate = try input.closure("isIncluded")
      return input.upstream.tryFilter { try predicate($0, .none) == .bool(true) }.eraseToAnyPublisher()
    },
    Counterpart("compactMap", "tryCompactMap(_:)") { input in
      let transform = try input.closure("transform")
      return input.upstream.tryCompactMap { value -> Value? in
        let result = try transform(value, .none)
        return result == .none ? nil : result
      }.eraseToAnyPublisher()
    },
    Counterpart(
      "take", "prefix(_:)",
      differs: "Combine's prefix finishes when the element after the last arrives (or the input ends); AA's at the last"
    ) { input in input.upstream.prefix(try input.int("count")).eraseToAnyPublisher() },
    Counterpart("drop", "dropFirst(_:)") { input in
      input.upstream.dropFirst(try input.int("count")).eraseToAnyPublisher()
    },
    Counterpart("takeWhile", "tryPrefix(while:)") { input in
      let predicate = try input.closure("predicate")
      return input.upstream.tryPrefix { try predicate($0, .none) == .bool(true) }.eraseToAnyPublisher()
    },
    Counterpart("dropWhile", "tryDrop(while:)") { input in
      let predicate = try input.closure("predicate")
      return input.upstream.tryDrop { try predicate($0, .none) == .bool(true) }.eraseToAnyPublisher()
    },
    Counterpart("compacted", "compactMap { $0 }") { input in
      input.upstream.compactMap { $0 == .none ? nil : $0 }.eraseToAnyPublisher()
    },
    Counterpart(
      "throttle", "throttle(for:scheduler:latest:)",
      differs:
        "Combine sends a window's element when the window ends (and holds the finish for it); AA when one arrives"
    ) { input in
      input.upstream.throttle(
        for: try input.stride("interval"), scheduler: input.scheduler, latest: input.stage.bool("latest") ?? true
      ).eraseToAnyPublisher()
    },
    Counterpart(
      "debounce", "debounce(for:scheduler:)",
      differs: "when the input finishes, AA sends the pending element first; Combine finishes at once and drops it"
    ) { input in
      input.upstream.debounce(for: try input.stride("interval"), scheduler: input.scheduler).eraseToAnyPublisher()
    },
    Counterpart("removeDuplicates", "removeDuplicates()") { input in
      input.upstream.removeDuplicates().eraseToAnyPublisher()
    },
    .none("interspersed", "Combine has no interspersed; flatMap each element into [separator, element]"),
    .none("adjacentPairs", "Combine has no adjacentPairs; scan keeping the previous element"),
    Counterpart("reductions", "tryScan(_:_:)") { input in
      let next = try input.closure("next")
      guard let initial = input.stage.value("initial") else {
        throw Unmatched(
          "Combine's scan needs a first result; AA's reductions without one starts from the first element")
      }
      return input.upstream.tryScan(initial) { try next($0, $1) }.eraseToAnyPublisher()
    },
    Counterpart("chunks", "collect(_:); with every: collect(.byTimeOrCount(…)) (pipesh's own†)") { input in
      let count = try input.int("count")
      guard input.stage.duration("every") != nil else {
        return input.upstream.collect(count).map { Value.array($0) }.eraseToAnyPublisher()
      }
      return CollectByTimeOrCount(
        upstream: input.upstream, scheduler: input.scheduler, interval: try input.stride("every"), count: count
      ).map { Value.array($0) }.eraseToAnyPublisher()
    },
    .none("chunked", "Combine has no chunking by a predicate; scan and filter, or collect"),
    Counterpart(
      "buffer", "buffer(size:prefetch:whenFull:): newest .dropOldest, oldest .dropNewest, bounded .byRequest"
    ) { input in
      let size: Int
      switch try input.value("size") {
      case .int(let count): size = count
      case .string("unbounded"): size = Int.max
      case let other: throw input.bug("a buffer of size \(other.printed)")
      }
      switch input.stage.word("policy") ?? "bounded" {
      case "newest":
        return input.upstream.buffer(size: size, prefetch: .keepFull, whenFull: .dropOldest).eraseToAnyPublisher()
      case "oldest":
        return input.upstream.buffer(size: size, prefetch: .keepFull, whenFull: .dropNewest).eraseToAnyPublisher()
      case "bounded":
        return input.upstream.buffer(size: size, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
      case let other: throw input.bug("a buffer with policy \(other)")
      }
    },
    Counterpart(
      "share", "share(): multicast(subject:).autoconnect(), over a subject sending in subscription order", origin: .own,
      differs: "Combine's share connects at the first subscriber: one that comes after the elements gets only the end"
    ) { input in
      input.upstream.multicast(subject: OrderedSubject()).autoconnect().eraseToAnyPublisher()
    },
    .none("enumerated", "Combine has no enumerated; scan counting, or zip with (0...).publisher"),
    Counterpart(
      "delay", "delay(for:scheduler:)",
      differs: "Combine delays the finish as well; AA's delay finishes when the last delayed element is out"
    ) { input in
      input.upstream.delay(for: try input.stride("interval"), scheduler: input.scheduler).eraseToAnyPublisher()
    },
    .none("work", "Combine has no back-pressured work; flatMap(maxPublishers: .max(1)) { Just($0).delay(…) }"),
    Counterpart(
      "timeout", "timeout(_:scheduler:)",
      differs: "Combine's timeout without customError finishes normally; pipesh's fails the job"
    ) { input in
      input.upstream.timeout(try input.stride("interval"), scheduler: input.scheduler).eraseToAnyPublisher()
    },
    Counterpart("tap", "handleEvents(receiveOutput:)") { input in
      input.upstream.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher()
    },
    .none("flatMap", "flatMap(maxPublishers: .max(1)) { … }; compare does not build per-element pipelines"),
    .none("flatMapLatest", "map { … }.switchToLatest(); compare does not build per-element pipelines"),
  ]
}

/// A counterpart that exists for some forms of an operator, not this one.
struct Unmatched: Error {
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}
