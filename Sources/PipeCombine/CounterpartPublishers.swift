import OpenCombine
import PipeEvaluator
import PipeSema

extension Counterparts {
  /// The publisher `compare` builds for a stage's operation, on the virtual scheduler: its
  /// upstream's (or inputs') elements through OpenCombine's own operator or, where OpenCombine
  /// lacks one, pipesh's own (`Own/`). Nil where Combine has nothing like it (`of(_:)` says what
  /// a Combine user would do instead).
  static func publisher(for operation: Operation<Resolved>, _ input: CounterpartInput) throws -> ValuePublisher? {
    switch operation {
    case .timer(let interval):
      let interval = input.stride(interval)
      let scheduler = input.scheduler
      return Deferred { () -> AnyPublisher<Value, any Error> in
        let subject = PassthroughSubject<Value, any Error>()
        var count = 0
        let ticks = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval) {
          subject.send(.int(count))
          count += 1
        }
        return subject.handleEvents(receiveCancel: { ticks.cancel() }).eraseToAnyPublisher()
      }.eraseToAnyPublisher()
    case .range(let from, let through, let by):
      if case .int(let a) = from, case .int(let b) = through, case .int(let step) = by {
        return Publishers.Sequence(sequence: stride(from: a, through: b, by: step).lazy.map { Value.int($0) })
          .eraseToAnyPublisher()
      }
      guard let a = from.number, let b = through.number, let step = by.number else {
        throw input.bug("a range of \(from.printed) through \(through.printed)")
      }
      return Publishers.Sequence(sequence: stride(from: a, through: b, by: step).lazy.map { Value.double($0) })
        .eraseToAnyPublisher()
    case .from(let values):
      return Publishers.Sequence(sequence: values).eraseToAnyPublisher()
    case .marble(let diagram, let tick, _):
      let tick = input.stride(tick)
      let scheduler = input.scheduler
      let stage = input.stage.text
      return Deferred { () -> PassthroughSubject<Value, any Error> in
        let subject = PassthroughSubject<Value, any Error>()
        let start = scheduler.now
        for step in diagram.events {
          for event in step.events {
            scheduler.schedule(after: start.advanced(by: tick * .init(nanoseconds: Int64(step.step)))) {
              switch event {
              case .value(let text): subject.send(.string(text))
              case .finish, .cancel: subject.send(completion: .finished)
              case .fail:
                subject.send(
                  completion: .failure(
                    PipelineError(
                      stage: stage,
                      message: diagram.dialect == .rxjs ? "failed (# in the diagram)" : "failed (^ in the diagram)")))
              }
            }
          }
        }
        // A diagram without |, ^ or ; finishes right after its last event, as the AA side does.
        // An RxJS diagram that writes no end never ends.
        if diagram.dialect == .aa, let last = diagram.events.last, !last.events.contains(where: \.isEnd) {
          scheduler.schedule(after: start.advanced(by: tick * .init(nanoseconds: Int64(last.step)))) {
            subject.send(completion: .finished)
          }
        }
        return subject
      }.eraseToAnyPublisher()
    case .channel, .stream:
      return PassthroughSubject<Value, any Error>().eraseToAnyPublisher()
    case .subject(_, let initial):
      return CurrentValueSubject<Value, any Error>(initial).eraseToAnyPublisher()
    case .empty:
      return Empty().eraseToAnyPublisher()
    case .never:
      return Empty(completeImmediately: false).eraseToAnyPublisher()
    case .fail(let message):
      return Fail(error: PipelineError(stage: input.stage.text, message: message)).eraseToAnyPublisher()
    case .merge:
      return MergeMany(input.unifiedInputs).eraseToAnyPublisher()
    case .zip:
      let i = input.inputs
      switch i.count {
      case 2: return Publishers.Zip(i[0], i[1]).map { Value.tuple([$0, $1]) }.eraseToAnyPublisher()
      case 3: return Publishers.Zip3(i[0], i[1], i[2]).map { Value.tuple([$0, $1, $2]) }.eraseToAnyPublisher()
      default: throw input.bug("\(i.count) inputs for zip")
      }
    case .combineLatest:
      return CombineLatestMany(input.inputs).map { Value.tuple($0) }.eraseToAnyPublisher()
    case .chain:
      let inputs = input.unifiedInputs
      guard let first = inputs.first else { throw input.bug("no inputs for chain") }
      return inputs.dropFirst().reduce(first) { $0.append($1).eraseToAnyPublisher() }
    case .map(let transform):
      let transform = input.compile(transform)
      return input.upstream.tryMap { try transform($0, .none) }.eraseToAnyPublisher()
    case .filter(let isIncluded):
      let predicate = input.compile(isIncluded)
      return input.upstream.tryFilter { try predicate($0, .none) == .bool(true) }.eraseToAnyPublisher()
    case .compactMap(let transform):
      let transform = input.compile(transform)
      return input.upstream.tryCompactMap { value -> Value? in
        let result = try transform(value, .none)
        return result == .none ? nil : result
      }.eraseToAnyPublisher()
    case .take(let count):
      return input.upstream.prefix(count).eraseToAnyPublisher()
    case .drop(let count):
      return input.upstream.dropFirst(count).eraseToAnyPublisher()
    case .takeWhile(let predicate):
      let predicate = input.compile(predicate)
      return input.upstream.tryPrefix { try predicate($0, .none) == .bool(true) }.eraseToAnyPublisher()
    case .dropWhile(let predicate):
      let predicate = input.compile(predicate)
      return input.upstream.tryDrop { try predicate($0, .none) == .bool(true) }.eraseToAnyPublisher()
    case .compacted:
      return input.upstream.compactMap { $0 == .none ? nil : $0 }.eraseToAnyPublisher()
    case .throttle(let interval, let latest):
      return input.upstream.throttle(
        for: input.stride(interval), scheduler: input.scheduler, latest: latest
      ).eraseToAnyPublisher()
    case .debounce(let interval):
      return input.upstream.debounce(for: input.stride(interval), scheduler: input.scheduler).eraseToAnyPublisher()
    case .removeDuplicates:
      return input.upstream.removeDuplicates().eraseToAnyPublisher()
    case .reductions(let initial, let next):
      let next = input.compile(next)
      guard let initial else {
        throw Unmatched(
          "Combine's scan needs a first result; AA's reductions without one starts from the first element")
      }
      return input.upstream.tryScan(initial) { try next($0, $1) }.eraseToAnyPublisher()
    case .chunks(let count, let signal):
      let every: Duration
      switch signal {
      case nil: return input.upstream.collect(count).map { Value.array($0) }.eraseToAnyPublisher()
      case .every(let interval): every = interval
      case .signal:
        throw Unmatched("Combine has no collect that another publisher's elements end; collect(.byTimeOrCount(…))")
      }
      return CollectByTimeOrCount(
        upstream: input.upstream, scheduler: input.scheduler, interval: input.stride(every), count: count
      ).map { Value.array($0) }.eraseToAnyPublisher()
    case .buffer(let size, let policy):
      let limit: Int
      switch size {
      case .count(let count): limit = count
      case .unbounded: limit = Int.max
      }
      switch policy {
      case .newest:
        return input.upstream.buffer(size: limit, prefetch: .keepFull, whenFull: .dropOldest).eraseToAnyPublisher()
      case .oldest:
        return input.upstream.buffer(size: limit, prefetch: .keepFull, whenFull: .dropNewest).eraseToAnyPublisher()
      case .bounded:
        return input.upstream.buffer(size: limit, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
      }
    case .share:
      return input.upstream.multicast(subject: OrderedSubject()).autoconnect().eraseToAnyPublisher()
    case .delay(let interval):
      return input.upstream.delay(for: input.stride(interval), scheduler: input.scheduler).eraseToAnyPublisher()
    case .timeout(let interval):
      return input.upstream.timeout(input.stride(interval), scheduler: input.scheduler).eraseToAnyPublisher()
    case .mapError(let transform):
      let (transform, stage) = (input.compile(transform), input.stage.text)
      return input.upstream.mapError { failure -> any Error in
        let message = (failure as? PipelineError)?.message ?? "\(failure)"
        do {
          guard case .string(let mapped) = try transform(.string(message), .none) else {
            return PipelineError(stage: stage, message: "pipesh gave mapError a non-String (a bug: please report it)")
          }
          return PipelineError(stage: stage, message: mapped)
        } catch {
          return error
        }
      }.eraseToAnyPublisher()
    case .tap:
      return input.upstream.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher()
    case .print:
      return input.upstream
    case .count:
      return input.upstream.count().map { Value.int($0) }.eraseToAnyPublisher()
    case .sum:
      let stage = input.stage.text
      let zero: Value = input.stage.outputType == .double ? .double(0) : .int(0)
      return input.upstream.tryReduce(zero) { total, value in
        switch (total, value) {
        case (.int(let a), .int(let b)):
          let (sum, overflow) = a.addingReportingOverflow(b)
          guard !overflow else { throw PipelineError(stage: stage, message: "integer overflow in \(a) + \(b)") }
          return .int(sum)
        case (.double(let a), _): return .double(a + (value.number ?? .nan))
        default: throw PipelineError(stage: stage, message: "a sum of \(total.printed) and \(value.printed)")
        }
      }.eraseToAnyPublisher()
    case .min:
      return input.upstream.min(by: Evaluator.less).eraseToAnyPublisher()
    case .max:
      return input.upstream.max(by: Evaluator.less).eraseToAnyPublisher()
    case .first:
      return input.upstream.first().eraseToAnyPublisher()
    case .last:
      return input.upstream.last().eraseToAnyPublisher()
    case .collect:
      return input.upstream.collect().map { Value.array($0) }.eraseToAnyPublisher()
    case .reduce(let initial, let next):
      let next = input.compile(next)
      return input.upstream.tryReduce(initial) { try next($0, $1) }.eraseToAnyPublisher()
    case .drain:
      return input.upstream.ignoreOutput().map(Value.init(never:)).eraseToAnyPublisher()
    case .flatMap(let body, let concurrency):
      let stage = input.stage.text
      let evaluator = Evaluator(stage: stage)
      let build = input.body
      let limit: Subscribers.Demand = .max(concurrency ?? 1)
      return input.upstream.flatMap(maxPublishers: limit) { element -> ValuePublisher in
        do {
          let resolved = try body.resolved { expr in try evaluator.compile(expr)(element, .none) }
          guard let publisher = build(resolved) else {
            throw PipelineError(stage: stage, message: "a stage of the body has no Combine counterpart")
          }
          return publisher
        } catch {
          return Fail(error: error).eraseToAnyPublisher()
        }
      }.eraseToAnyPublisher()
    case .random, .lines, .stdin, .interspersed, .adjacentPairs, .chunked, .enumerated, .work, .flatMapLatest, .spawn,
      .diagram, .into:
      return nil
    }
  }
}
