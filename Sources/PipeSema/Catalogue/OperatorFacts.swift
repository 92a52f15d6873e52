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

  init(
    _ kind: OperatorKind, endless: Bool = false, endsWhenClosed: Bool = false, endsInputEarly: Bool = false,
    endsWithShortestInput: Bool = false, waitsOn: WaitPlace, pacesItsUpstream: Bool = false
  ) {
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
    case .zip: OperatorFacts(kind, endsWithShortestInput: true, waitsOn: .upstream)
    case .merge, .combineLatest, .chain: OperatorFacts(kind, waitsOn: .upstream)
    case .map, .enumerated, .interspersed, .adjacentPairs, .reductions, .compacted, .tap, .share, .filter,
      .compactMap, .drop, .dropWhile, .removeDuplicates:
      OperatorFacts(kind, waitsOn: .upstream)
    case .take, .takeWhile: OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream)
    // AA's `_throttle` reads the clock's time and sleeps only after its input has ended.
    case .throttle: OperatorFacts(kind, waitsOn: .upstream)
    case .debounce: OperatorFacts(kind, waitsOn: .upstreamAndClock)
    case .chunks(_, let every): OperatorFacts(kind, waitsOn: every == nil ? .upstream : .upstreamAndClock)
    case .chunked, .delay: OperatorFacts(kind, waitsOn: .upstreamAndClock)
    case .work: OperatorFacts(kind, waitsOn: .upstreamAndClock, pacesItsUpstream: true)
    // It fails the job when its input pauses; an input that never pauses it never ends.
    case .timeout: OperatorFacts(kind, waitsOn: .upstreamAndClock)
    case .buffer: OperatorFacts(kind, waitsOn: .upstream)
    case .flatMap, .flatMapLatest: OperatorFacts(kind, waitsOn: .upstream)
    case .first: OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream)
    case .print, .count, .sum, .min, .max, .last, .collect, .reduce, .drain, .diagram:
      OperatorFacts(kind, waitsOn: .upstream)
    case .into: OperatorFacts(kind, waitsOn: .consumer, pacesItsUpstream: true)
    }
  }
}
