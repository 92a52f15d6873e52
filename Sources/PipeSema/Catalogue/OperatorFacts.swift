/// What a running node of an operator waits on while its consumer asks it for an element: what
/// `top` and the deadlock messages say, read from the operator, never from its spelling.
public enum WaitPlace: Sendable, Equatable {
  /// Nothing: it answers at once (`range`, `from`, `random`, `empty`, `fail`).
  case nothing
  /// Its clock: a timer's next tick, a marble's next step.
  case clock
  /// Something sent from outside the job: `send`, `close` or `fail` of its channel, stream or subject.
  case send
  /// Its file.
  case file
  /// Standard input.
  case standardInput
  /// Nothing that will ever come (`never`).
  case forever
  /// Its upstream's `next()`.
  case upstream
  /// Its upstream, or a deadline of its own (a debounce, a delay, a work's wait), whichever is first.
  case upstreamAndClock
  /// A consumer to take what it sends (`into`).
  case consumer
}

/// Which elements an operator lets go of rather than pass on: what a view of element fates says
/// of an element that went in and did not come out.
public enum Discarding: Sendable, Equatable {
  /// None: every element comes out (perhaps changed, or folded into a result), or the operator
  /// ends its input early.
  case nothing
  /// Those its rule refuses (`filter`, `compactMap`, `drop`, `removeDuplicates`, `last`).
  case byRule
  /// Those that come while it is busy or too soon (`throttle`, `debounce`, a `buffer` that drops,
  /// `combineLatest` before each input has one, `flatMapLatest`'s older pipelines).
  case byTiming
}

/// The tasks a running node of the operator starts beside its job's task: what makes it
/// concurrent, rather than asked in its consumer's task.
public enum TaskUse: Sendable, Equatable {
  /// None: it runs in its consumer's task.
  case none
  /// One task that iterates its input ahead of its consumer (AA's `buffer`, `share`; `delay`).
  case iteratingItsInput
  /// A task with a child task per input (AA's `merge`, `zip`, `combineLatest`; `chunks … every:`
  /// and `chunked` merge their input with a timer).
  case childPerInput
  /// A task with a child for its input and one for each wait on the clock (AA's `debounce`;
  /// `timeout` races each `next()` against the clock).
  case inputAndClock
  /// A task per element's pipeline (`flatMap`; `flatMapLatest`, one at a time, and one reading
  /// its input).
  case perElement
}

/// What views need to know of an operator, declared once here for every operator, from its
/// arguments where they matter: lints, `top`, deadlock messages and the script's last words switch
/// over these.
public struct OperatorFacts: Sendable, Equatable {
  /// The operator.
  public let kind: OperatorKind
  /// A source that never ends by itself (`timer`, `never`, `random` without `count:`).
  public let endless: Bool
  /// A source that ends only when something outside the job closes it (a channel, stream or
  /// subject): when nothing more can, it never ends.
  public let endsWhenClosed: Bool
  /// An operator that ends its input early (`take`, `first`, `takeWhile`).
  public let endsInputEarly: Bool
  /// A combinator that ends when its shortest input ends (`zip`); the others end with their longest.
  public let endsWithShortestInput: Bool
  /// What it waits on while asked.
  public let waitsOn: WaitPlace
  /// Whether it asks its upstream for the next element only once something outside it has
  /// happened (`work`: its wait on the clock; `into`: a consumer took the last one), so an input
  /// that never waits is held back. Every other operator asks as fast as it is asked, or faster
  /// (a `debounce`, a `buffer` or a `delay` iterate their input in a task of their own).
  public let pacesItsUpstream: Bool
  /// Which elements it may let go of.
  public let discards: Discarding
  /// The tasks it starts.
  public let tasks: TaskUse
  /// Whether it goes on after its task is cancelled: it finishes the wait it is in and hands its
  /// element on before it ends (`work … cooperative: false`), so its job ends that much later.
  public let ignoresCancellation: Bool

  init(
    _ kind: OperatorKind, endless: Bool = false, endsWhenClosed: Bool = false, endsInputEarly: Bool = false,
    endsWithShortestInput: Bool = false, waitsOn: WaitPlace, pacesItsUpstream: Bool = false,
    discards: Discarding = .nothing, tasks: TaskUse = .none, ignoresCancellation: Bool = false
  ) {
    self.ignoresCancellation = ignoresCancellation
    self.discards = discards
    self.tasks = tasks
    self.kind = kind
    self.endsWithShortestInput = endsWithShortestInput
    self.endless = endless
    self.endsWhenClosed = endsWhenClosed
    self.endsInputEarly = endsInputEarly
    self.waitsOn = waitsOn
    self.pacesItsUpstream = pacesItsUpstream
  }
}

extension Operation {
  /// The operator's facts, with its arguments.
  public var facts: OperatorFacts {
    let kind = self.kind
    return switch self {
    case .timer: OperatorFacts(kind, endless: true, waitsOn: .clock)
    case .range, .from, .empty, .fail: OperatorFacts(kind, waitsOn: .nothing)
    case .marble: OperatorFacts(kind, waitsOn: .clock)
    case .random(_, _, let count, _): OperatorFacts(kind, endless: count == nil, waitsOn: .nothing)
    case .lines: OperatorFacts(kind, waitsOn: .file)
    case .stdin: OperatorFacts(kind, waitsOn: .standardInput)
    case .channel, .stream, .subject: OperatorFacts(kind, endsWhenClosed: true, waitsOn: .send)
    case .never: OperatorFacts(kind, endless: true, waitsOn: .forever)
    case .zip: OperatorFacts(kind, endsWithShortestInput: true, waitsOn: .upstream, tasks: .childPerInput)
    case .merge: OperatorFacts(kind, waitsOn: .upstream, tasks: .childPerInput)
    case .combineLatest: OperatorFacts(kind, waitsOn: .upstream, discards: .byTiming, tasks: .childPerInput)
    case .chain: OperatorFacts(kind, waitsOn: .upstream)
    case .map, .enumerated, .interspersed, .adjacentPairs, .reductions, .tap:
      OperatorFacts(kind, waitsOn: .upstream)
    case .share: OperatorFacts(kind, waitsOn: .upstream, tasks: .iteratingItsInput)
    case .filter, .compactMap, .compacted, .drop, .dropWhile, .removeDuplicates:
      OperatorFacts(kind, waitsOn: .upstream, discards: .byRule)
    case .take, .takeWhile: OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream)
    // AA's `_throttle` reads the clock's time and sleeps only after its input has ended.
    case .throttle: OperatorFacts(kind, waitsOn: .upstream, discards: .byTiming)
    case .debounce: OperatorFacts(kind, waitsOn: .upstreamAndClock, discards: .byTiming, tasks: .inputAndClock)
    case .chunks(_, let every):
      every == nil
        ? OperatorFacts(kind, waitsOn: .upstream)
        : OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .childPerInput)
    case .chunked: OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .childPerInput)
    case .delay: OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .iteratingItsInput)
    case .work(_, let cooperative):
      OperatorFacts(
        kind, waitsOn: .upstreamAndClock, pacesItsUpstream: true, ignoresCancellation: Form.isFalse(cooperative))
    // It fails the job when its input pauses; an input that never pauses it never ends.
    case .timeout: OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .inputAndClock)
    // A full buffer that does not wait drops (an unbounded one is never full).
    case .buffer(_, let policy):
      OperatorFacts(
        kind, waitsOn: .upstream, discards: policy == .bounded ? .nothing : .byTiming, tasks: .iteratingItsInput)
    case .flatMap: OperatorFacts(kind, waitsOn: .upstream, tasks: .perElement)
    case .flatMapLatest: OperatorFacts(kind, waitsOn: .upstream, discards: .byTiming, tasks: .perElement)
    case .first: OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream)
    case .last: OperatorFacts(kind, waitsOn: .upstream, discards: .byRule)
    case .print, .count, .sum, .min, .max, .collect, .reduce, .drain, .diagram:
      OperatorFacts(kind, waitsOn: .upstream)
    case .into: OperatorFacts(kind, waitsOn: .consumer, pacesItsUpstream: true)
    }
  }
}

extension Operation where Form == Resolved {
  /// For an operator that drops what it cannot hold (`buffer 10 policy: newest`): how many
  /// elements it holds before it drops (the lint `buffer-drops` counts past them).
  public var dropsBeyond: Int? {
    guard case .buffer(.count(let count), let policy) = self, policy != .bounded else { return nil }
    return count
  }
}
