/// A checked stage's operator with its arguments, typed: what every backend (the runtime's nodes,
/// the fused steps and sinks, `compare`'s publishers, the Swift export) switches over, each
/// exhaustively, so an operator cannot be added without each of them. `Form` says whether the
/// arguments are known values (`Resolved`) or as written (`Written`).
public enum Operation<Form: ArgumentForm>: Sendable {
  // sources
  case timer(interval: Form.Interval)
  case range(from: Form.Constant, through: Form.Constant, by: Form.Constant)
  case from(values: Form.Constants)
  case marble(diagram: Form.Diagram, tick: Form.Interval, dialect: MarbleDialect)
  case random(low: Form.Integer, high: Form.Integer, count: Form.Integer?, seed: Form.Integer?)
  case lines(file: Form.Text)
  case stdin
  case channel(name: String)
  case stream(name: String, buffering: StreamBuffering)
  case subject(name: String, initial: Value)
  case empty
  case never
  case fail(message: Form.Text)
  // combinators: their inputs are the stage's
  case merge
  case zip
  case combineLatest
  case chain
  // operators
  case map(transform: TypedExpr)
  case filter(isIncluded: TypedExpr)
  case compactMap(transform: TypedExpr)
  case take(count: Form.Integer)
  case drop(count: Form.Integer)
  case takeWhile(predicate: TypedExpr)
  case dropWhile(predicate: TypedExpr)
  case compacted
  case throttle(interval: Form.Interval, latest: Form.Flag)
  case debounce(interval: Form.Interval)
  case removeDuplicates
  case interspersed(separator: Form.Constant)
  case adjacentPairs
  case reductions(initial: Form.Constant?, next: TypedExpr)
  case chunks(count: Form.Integer, or: ChunkSignal<Form>?)
  case chunked(by: ChunkBoundary<Form>)
  case buffer(size: Form.Size, policy: BufferPolicy)
  case share
  case enumerated
  case delay(interval: Form.Interval)
  case work(interval: Form.Interval, cooperative: Form.Flag)
  case timeout(interval: Form.Interval)
  case mapError(transform: TypedExpr)
  case tap(label: Form.Text, time: Form.Flag)
  case flatMap(body: CheckedPipeline, concurrency: Form.Integer?)
  case flatMapLatest(body: CheckedPipeline)
  case spawn(body: CheckedPipeline)
  // sinks
  case print(label: Form.Text?, time: Form.Flag)
  case count
  case sum
  case min
  case max
  case first
  case last
  case collect
  case reduce(initial: Form.Constant, next: TypedExpr)
  case drain
  case diagram(tick: Form.Interval?)
  case into(name: String)

  public var kind: OperatorKind {
    switch self {
    case .timer: .timer
    case .range: .range
    case .from: .from
    case .marble: .marble
    case .random: .random
    case .lines: .lines
    case .stdin: .stdin
    case .channel: .channel
    case .stream: .stream
    case .subject: .subject
    case .empty: .empty
    case .never: .never
    case .fail: .fail
    case .merge: .merge
    case .zip: .zip
    case .combineLatest: .combineLatest
    case .chain: .chain
    case .map: .map
    case .filter: .filter
    case .compactMap: .compactMap
    case .take: .take
    case .drop: .drop
    case .takeWhile: .takeWhile
    case .dropWhile: .dropWhile
    case .compacted: .compacted
    case .throttle: .throttle
    case .debounce: .debounce
    case .removeDuplicates: .removeDuplicates
    case .interspersed: .interspersed
    case .adjacentPairs: .adjacentPairs
    case .reductions: .reductions
    case .chunks: .chunks
    case .chunked: .chunked
    case .buffer: .buffer
    case .share: .share
    case .enumerated: .enumerated
    case .delay: .delay
    case .work: .work
    case .timeout: .timeout
    case .mapError: .mapError
    case .tap: .tap
    case .flatMap: .flatMap
    case .flatMapLatest: .flatMapLatest
    case .spawn: .spawn
    case .print: .print
    case .count: .count
    case .sum: .sum
    case .min: .min
    case .max: .max
    case .first: .first
    case .last: .last
    case .collect: .collect
    case .reduce: .reduce
    case .drain: .drain
    case .diagram: .diagram
    case .into: .into
    }
  }
}

/// Where `chunked` ends a chunk: AA's `chunked(by:)` with a timer, a closure or a signal sequence.
public enum ChunkBoundary<Form: ArgumentForm>: Sendable {
  /// `chunked INTERVAL`: at each tick of a timer (`chunked(by: .repeating(every:clock:))`).
  case every(Form.Interval)
  /// `chunked { $0 <= $1 }`: between two neighbours the closure is false for
  /// (`chunked(by:)` with an `(Element, Element) -> Bool` closure).
  case belongTogether(TypedExpr)
  /// `chunked by: (PIPELINE)`: at each element of another pipeline, the stage's input
  /// (`chunked(by:)` with an `AsyncSequence`).
  case signal(CheckedPipeline)
}

/// What else ends a chunk of `chunks N`: AA's `chunks(ofCount:or:)` with a timer or a signal sequence.
public enum ChunkSignal<Form: ArgumentForm>: Sendable {
  /// `chunks N every: INTERVAL`: each tick of a timer (`chunks(ofCount:or: .repeating(every:clock:))`).
  case every(Form.Interval)
  /// `chunks N or: (PIPELINE)`: each element of another pipeline, the stage's input.
  case signal(CheckedPipeline)
}
