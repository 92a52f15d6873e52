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

/// Why an operator let an element go: the words `why` says of it.
public enum Loss: Sendable, Equatable {
  /// Its condition was false (`filter`).
  case filtered
  /// Its transform gave nil (`compactMap`).
  case mappedToNil
  /// It was nil (`compacted`).
  case wasNil
  /// One of the first N (`drop N`).
  case droppedFirst
  /// Its condition still held (`dropWhile`).
  case droppedWhile
  /// Equal to the last element passed on (`removeDuplicates`).
  case duplicate
  /// Another element came out for its window (`throttle`).
  case throttled
  /// Its condition was false, which ended the operator (`takeWhile`).
  case endedTake
  /// A newer element came before the quiet period ended (`debounce`).
  case replaced
  /// The buffer was full (`buffer N policy: newest` drops its oldest, `oldest` the new one).
  case bufferFull(BufferPolicy)
  /// Read by `zip`, which ended before every other input had an element to pair it with.
  case unpaired
  /// A newer element of the same input came before `combineLatest` combined it.
  case overtaken
  /// `combineLatest` ended before every other input had an element to combine it with.
  case uncombined
  /// No element came after it to pair it with (`adjacentPairs` of a single element).
  case alone
}

/// How elements go through an operator, as `why` follows them one by one: from its consumer's
/// asks and answers and the elements its input passed on (recorded while the job is watched).
public enum ElementFlow: Sendable, Equatable {
  /// A source: elements start here.
  case source
  /// Asked once, it reads its input until it can answer: the last element read comes out (perhaps
  /// changed), the others are let go for `loss` (all of them when it answers with its end). With
  /// no `loss`, it reads one element an ask (`map`, `take`).
  case answersWithLastRead(Loss?)
  /// The same, but the first element read comes out and the later ones are let go
  /// (`throttle … latest: false`, AA's reduction that keeps its first element).
  case answersWithFirstRead(Loss)
  /// Every element read in one ask goes into the one it answers with (`chunks N`).
  case gathersReads
  /// A task of its own reads its input into a queue its consumer empties, in order; a consumer
  /// already waiting is handed the element. Full (at the node's `dropsBeyond`), `policy` says
  /// which is dropped (`buffer`; `delay` and a bounded buffer keep every one).
  case queues(policy: BufferPolicy?)
  /// Keeps only the newest element until it comes out (`debounce`), `quiet` after it came (or at
  /// once, when its input ends); nil where the interval is worked out per element.
  case keepsNewest(quiet: Duration?)
  /// Every element of every input comes out as it is (`merge`, `chain`, a group).
  case passesInputs
  /// Each element comes out to every reader that reads it then (`share`): the first comes out as
  /// the element, the others as copies of it.
  case shares
  /// Every element comes out as it is, with an element of its own between two (`interspersed`).
  case intersperses
  /// Each element it passes on is a tuple of the oldest unpaired element of each input (`zip`);
  /// those read when an input ended are let go of.
  case zips
  /// Each element it passes on is a tuple of each input's newest element (`combineLatest`); one
  /// that a newer one replaced before that is let go of.
  case combinesLatest
  /// Each element it passes on is a pair of the element before and the one just read
  /// (`adjacentPairs`).
  case pairsAdjacent
  /// Each element it passes on is an array of the oldest elements read and not yet passed on
  /// (`chunks … every:`, `chunked`): its clock (or its signal) may end a chunk while nobody asks.
  case gathersChunks
  /// Each element read becomes a pipeline of its own, whose elements come out in its place
  /// (`flatMap`, `flatMapLatest`): its pipelines' nodes are followed as nodes of their own.
  case expands
  /// A sink: what it reads reached the end of the pipeline.
  case sink
}

/// The tasks a running node of the operator starts beside its job's task: what makes it
/// concurrent, rather than asked in its consumer's task.
public enum TaskUse: Sendable, Equatable {
  /// None: it runs in its consumer's task.
  case none
  /// One task that iterates its input ahead of its consumer (AA's `buffer`, `share`; `delay`).
  case iteratingItsInput
  /// A task with a child task per input (AA's `merge`, `zip`, `combineLatest`; `chunks … every:`
  /// and `chunked` merge their input with a timer or a signal).
  case childPerInput
  /// A task with a child for its input and one for each wait on the clock (AA's `debounce`;
  /// `timeout` races each `next()` against the clock).
  case inputAndClock
  /// An unstructured task per element, which nobody awaits or cancels: it outlives the job
  /// (`spawn`, on purpose).
  case outlivingPerElement
  /// A task per element's pipeline (`flatMap … concurrency: N`; `flatMapLatest`, one at a time,
  /// and one reading its input).
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
  /// How elements go through it, for `why`.
  public let flow: ElementFlow

  init(
    _ kind: OperatorKind, endless: Bool = false, endsWhenClosed: Bool = false, endsInputEarly: Bool = false,
    endsWithShortestInput: Bool = false, waitsOn: WaitPlace, pacesItsUpstream: Bool = false,
    discards: Discarding = .nothing, tasks: TaskUse = .none, ignoresCancellation: Bool = false,
    flow: ElementFlow = .answersWithLastRead(nil)
  ) {
    self.ignoresCancellation = ignoresCancellation
    self.flow = flow
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
    case .timer: OperatorFacts(kind, endless: true, waitsOn: .clock, flow: .source)
    case .range, .from, .empty, .fail: OperatorFacts(kind, waitsOn: .nothing, flow: .source)
    case .marble: OperatorFacts(kind, waitsOn: .clock, flow: .source)
    case .random(_, _, let count, _): OperatorFacts(kind, endless: count == nil, waitsOn: .nothing, flow: .source)
    case .lines: OperatorFacts(kind, waitsOn: .file, flow: .source)
    case .stdin: OperatorFacts(kind, waitsOn: .standardInput, flow: .source)
    case .channel, .stream, .subject: OperatorFacts(kind, endsWhenClosed: true, waitsOn: .send, flow: .source)
    case .never: OperatorFacts(kind, endless: true, waitsOn: .forever, flow: .source)
    case .zip:
      OperatorFacts(kind, endsWithShortestInput: true, waitsOn: .upstream, tasks: .childPerInput, flow: .zips)
    case .merge: OperatorFacts(kind, waitsOn: .upstream, tasks: .childPerInput, flow: .passesInputs)
    case .combineLatest:
      OperatorFacts(kind, waitsOn: .upstream, discards: .byTiming, tasks: .childPerInput, flow: .combinesLatest)
    case .chain: OperatorFacts(kind, waitsOn: .upstream, flow: .passesInputs)
    case .map, .enumerated, .reductions, .tap, .mapError: OperatorFacts(kind, waitsOn: .upstream)
    // One element in makes two out (a separator), or one pair out of two elements.
    case .interspersed: OperatorFacts(kind, waitsOn: .upstream, flow: .intersperses)
    case .adjacentPairs: OperatorFacts(kind, waitsOn: .upstream, flow: .pairsAdjacent)
    case .share: OperatorFacts(kind, waitsOn: .upstream, tasks: .iteratingItsInput, flow: .shares)
    case .filter: OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .answersWithLastRead(.filtered))
    case .compactMap:
      OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .answersWithLastRead(.mappedToNil))
    case .compacted: OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .answersWithLastRead(.wasNil))
    case .drop: OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .answersWithLastRead(.droppedFirst))
    case .dropWhile:
      OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .answersWithLastRead(.droppedWhile))
    // AA's `removeDuplicates` reads on until an element differs from the last it passed on.
    case .removeDuplicates:
      OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .answersWithLastRead(.duplicate))
    case .take: OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream)
    case .takeWhile:
      OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream, flow: .answersWithLastRead(.endedTake))
    // AA's `_throttle` reads the clock's time and sleeps only after its input has ended; one ask
    // reads until the window has passed, and answers with the newest read (latest) or the first.
    // `latest:` is a Bool once resolved; written per element (`$0`), it is not known here, but a
    // node is built only from a resolved stage: AA's default stands in for it.
    case .throttle(_, let latest):
      OperatorFacts(
        kind, waitsOn: .upstream, discards: .byTiming,
        flow: (latest as? Bool) == false ? .answersWithFirstRead(.throttled) : .answersWithLastRead(.throttled))
    case .debounce(let interval):
      OperatorFacts(
        kind, waitsOn: .upstreamAndClock, discards: .byTiming, tasks: .inputAndClock,
        flow: .keepsNewest(quiet: interval as? Duration))
    case .chunks(_, nil): OperatorFacts(kind, waitsOn: .upstream, flow: .gathersReads)
    case .chunks(_, .every), .chunked(.every):
      OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .childPerInput, flow: .gathersChunks)
    // AA merges its input with the signal: it waits on both, its inputs, as `merge` does.
    case .chunks(_, .signal), .chunked(.signal):
      OperatorFacts(kind, waitsOn: .upstream, tasks: .childPerInput, flow: .gathersChunks)
    // It reads one element past each chunk before it emits it: each chunk is of the oldest it holds.
    case .chunked(.belongTogether): OperatorFacts(kind, waitsOn: .upstream, flow: .gathersChunks)
    case .delay:
      OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .iteratingItsInput, flow: .queues(policy: nil))
    case .work(_, let cooperative):
      OperatorFacts(
        kind, waitsOn: .upstreamAndClock, pacesItsUpstream: true, ignoresCancellation: Form.isFalse(cooperative))
    // It fails the job when its input pauses; an input that never pauses it never ends. Its pump
    // task reads the next element while the last one waits to be taken: a queue.
    case .timeout:
      OperatorFacts(kind, waitsOn: .upstreamAndClock, tasks: .inputAndClock, flow: .queues(policy: nil))
    // A full buffer that does not wait drops (an unbounded one is never full).
    case .buffer(_, let policy):
      OperatorFacts(
        kind, waitsOn: .upstream, discards: policy == .bounded ? .nothing : .byTiming, tasks: .iteratingItsInput,
        flow: .queues(policy: policy == .bounded ? nil : policy))
    // One element's pipeline after another in the consumer's task; with `concurrency:`, a task group
    // with a child per element's pipeline.
    case .flatMap(_, let concurrency):
      OperatorFacts(kind, waitsOn: .upstream, tasks: concurrency == nil ? .none : .perElement, flow: .expands)
    // It passes each element on as it came; the task it starts for it is nobody's child.
    case .spawn: OperatorFacts(kind, waitsOn: .upstream, tasks: .outlivingPerElement)
    case .flatMapLatest:
      OperatorFacts(kind, waitsOn: .upstream, discards: .byTiming, tasks: .perElement, flow: .expands)
    case .first: OperatorFacts(kind, endsInputEarly: true, waitsOn: .upstream, flow: .sink)
    case .last: OperatorFacts(kind, waitsOn: .upstream, discards: .byRule, flow: .sink)
    case .print, .count, .sum, .min, .max, .collect, .reduce, .drain, .diagram:
      OperatorFacts(kind, waitsOn: .upstream, flow: .sink)
    case .into: OperatorFacts(kind, waitsOn: .consumer, pacesItsUpstream: true, flow: .sink)
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
