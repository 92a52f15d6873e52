import OpenCombine
import PipeRuntime
import PipeSema

extension Counterparts {
  /// The sinks: what a `sink(receiveValue:)` gets, or the reducing operator before it.
  static let sinks: [Counterpart] = [
    Counterpart("print", "sink(receiveValue: { print($0) })") { input in input.upstream },
    Counterpart("count", "count()") { input in input.upstream.count().map { Value.int($0) }.eraseToAnyPublisher() },
    Counterpart("sum", "tryReduce(0, +)") { input in
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
    },
    Counterpart("min", "min(by:)") { input in input.upstream.min(by: Evaluator.less).eraseToAnyPublisher() },
    Counterpart("max", "max(by:)") { input in input.upstream.max(by: Evaluator.less).eraseToAnyPublisher() },
    Counterpart("first", "first()") { input in input.upstream.first().eraseToAnyPublisher() },
    Counterpart("last", "last()") { input in input.upstream.last().eraseToAnyPublisher() },
    Counterpart("collect", "collect()") { input in
      input.upstream.collect().map { Value.array($0) }.eraseToAnyPublisher()
    },
    Counterpart("reduce", "tryReduce(_:_:)") { input in
      let next = try input.closure("next")
      return input.upstream.tryReduce(try input.value("initial")) { try next($0, $1) }.eraseToAnyPublisher()
    },
    Counterpart("drain", "ignoreOutput()") { input in
      input.upstream.ignoreOutput().map(Value.init(never:)).eraseToAnyPublisher()
    },
    .none("diagram", "Combine draws no diagrams; this table is one"),
    .none("into", "an AsyncChannel has no Combine twin; subscribe(subject) sends into a PassthroughSubject"),
  ]
}

extension Value {
  /// What `ignoreOutput()` never sends, as a value: its publisher then fits a row.
  init(never: Never) { switch never {} }
}
