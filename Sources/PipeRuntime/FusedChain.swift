import PipeEvaluator
import PipeSema

/// The state of one fused stage for one iteration: what it does to each element. Each fusable
/// operator defines its step in its own file.
protocol FusedStep: AnyObject {
  /// Whether the stage can come to have all it needs (`take`): only those are asked
  /// `isSatisfied`, not every stage for every element.
  var canBeSatisfied: Bool { get }
  /// Whether the stage has all it needs, so nothing more is pulled (`take` after N).
  var isSatisfied: Bool { get }
  func apply(_ value: Value) throws(PipelineError) -> FusedOutcome
  /// What the stage does over plain Ints, when its input is Int and it has such a form: a run of
  /// steps that have one passes its elements through them unboxed.
  var intStep: IntStep? { get }
}

extension FusedStep {
  var canBeSatisfied: Bool { false }
  var isSatisfied: Bool { false }
  var intStep: IntStep? { nil }
}

/// A fused stage over plain Ints: the leading steps of a run that have one take each element as
/// an `Int`, and it is boxed once, after the last of them.
enum IntStep {
  /// Transforms it (`map`).
  case map(IntClosure)
  /// Passes it on or drops it (`filter`, `drop`; `take` counts it and passes it on). Not
  /// `Sendable`: it may change its step's state, which one iteration owns.
  case filter(IntFilter)

  typealias IntFilter = (Int, Int) throws(PipelineError) -> Bool
}

/// A fused run's steps compiled into closures, each step's calling the next: an element through
/// the run is one or two calls from the loop, with no lookup of steps in between. The leading
/// steps that have an `IntStep` (`ints`) pass their elements on as plain Ints; those are boxed
/// once, for the steps after (`boxed`). Each step counts what it passes at its index in `counts`.
struct FusedChain {
  typealias Counts = UnsafeMutablePointer<Int>
  typealias IntLink = (Int, Counts) throws(PipelineError) -> Int?

  /// The leading steps over plain Ints: the Int the last passes on, or nil when one dropped it.
  /// When there are none (`hasInts` false), it passes every Int on and is not called.
  let ints: IntLink
  let hasInts: Bool
  /// The steps after them.
  let boxed: (Value, Counts) throws(PipelineError) -> Passage

  init(_ steps: [any FusedStep]) {
    let intSteps = Array(steps.lazy.map(\.intStep).prefix { $0 != nil }.compactMap { $0 })
    var boxed: (Value, Counts) throws(PipelineError) -> Passage = { value, _ in .passed(value) }
    for (index, step) in steps.enumerated().dropFirst(intSteps.count).reversed() {
      let next = boxed
      boxed = { value, counts throws(PipelineError) in
        switch try step.apply(value) {
        case .pass(let result):
          counts[index] += 1
          return try next(result, counts)
        case .skip: return .skipped
        case .stop: return .stopped(at: index)
        }
      }
    }
    var ints: IntLink = { element, _ in element }
    for (index, step) in intSteps.enumerated().reversed() {
      ints = index == intSteps.count - 1 ? Self.last(step, at: index) : Self.link(step, at: index, then: ints)
    }
    self.ints = ints
    self.boxed = boxed
    hasInts = !intSteps.isEmpty
  }

  /// One step over Ints, calling the steps after it.
  private static func link(_ step: IntStep, at index: Int, then next: @escaping IntLink) -> IntLink {
    switch step {
    case .map(let transform):
      { element, counts throws(PipelineError) in
        let result = try transform(element, 0)
        counts[index] += 1
        return try next(result, counts)
      }
    case .filter(let isIncluded):
      { element, counts throws(PipelineError) in
        guard try isIncluded(element, 0) else { return nil }
        counts[index] += 1
        return try next(element, counts)
      }
    }
  }

  /// The last step over Ints (apart from `link`: a call to a closure that passes every Int on costs
  /// 10% of a `map | filter` chain).
  private static func last(_ step: IntStep, at index: Int) -> IntLink {
    switch step {
    case .map(let transform):
      { element, counts throws(PipelineError) in
        let result = try transform(element, 0)
        counts[index] += 1
        return result
      }
    case .filter(let isIncluded):
      { element, counts throws(PipelineError) in
        guard try isIncluded(element, 0) else { return nil }
        counts[index] += 1
        return element
      }
    }
  }

  /// An element of the run's input through the run.
  @inline(__always)
  func pass(_ value: Value, _ counts: Counts) throws(PipelineError) -> Passage {
    hasInts ? try pass(integer: value.unboxedInt, counts) : try boxed(value, counts)
  }

  /// An element of the run's input that is an Int (a `range`'s) through the run.
  @inline(__always)
  func pass(integer: Int, _ counts: Counts) throws(PipelineError) -> Passage {
    guard hasInts else { return try boxed(.int(integer), counts) }
    guard let element = try ints(integer, counts) else { return .skipped }
    return try boxed(.int(element), counts)
  }
}

/// What became of one element in a fused run.
enum Passage {
  /// It passed every step.
  case passed(Value)
  /// A step dropped it.
  case skipped
  /// A step dropped it and finished (`takeWhile`), the one at this index.
  case stopped(at: Int)
}

/// What a fused stage does with one element.
enum FusedOutcome {
  /// Passes this element on.
  case pass(Value)
  /// Drops it and asks for the next.
  case skip
  /// Drops it and finishes (`takeWhile`).
  case stop
}
