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
}

extension FusedStep {
  var canBeSatisfied: Bool { false }
  var isSatisfied: Bool { false }
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

/// Where a fused node's elements come from.
enum FusedSource: Sendable {
  /// Another node, asked with one async call per element.
  case upstream(ValueSequence)
  /// `range` over integers, looped over directly.
  case integers(from: Int, through: Int, by: Int)
  /// `from V…`, looped over directly.
  case values([Value])
}

/// A run of synchronous stages (those with a `FusedStep`), possibly with a source that has a
/// `FusedSource` before them, as one node:
/// the per-element path is at most one async call (to the upstream) plus a loop over the steps,
/// instead of one async call per stage. Every fused stage keeps its own `Node` record, with the
/// same states and counts as unfused.
struct FusedSequence: AsyncSequence, Sendable {
  typealias Element = Value

  let source: FusedSource
  /// The source's node when the source is fused in.
  let sourceNode: Node?
  let steps: [@Sendable () -> FusedStep]
  let nodes: [Node]
  let context: JobContext
  /// The lifetimes of the source node and the stage nodes.
  let lifetimes: [NodeLifetime]

  func makeAsyncIterator() -> Iterator {
    Iterator(sequence: self)
  }

  final class Iterator: AsyncIteratorProtocol {
    private var upstream: ValueSequence.Iterator?
    private var integer: (next: Int, last: Int, step: Int, done: Bool) = (0, 0, 1, true)
    private var values: [Value]?
    private var valueIndex = 0
    private let steps: [any FusedStep]
    /// The steps that can have all they need (`take`), nearest the consumer last.
    private let satisfiable: [Int]
    private let nodes: [Node]
    private let sourceNode: Node?
    private let context: JobContext
    private let lifetimes: [NodeLifetime]
    private var started = false
    private var ended = false
    private let counting = Instrumentation.isOn
    /// Elements out of the source and of each step, counted here and published to the nodes every
    /// 1,024 elements and at the end, so the hot loop makes no atomic operation.
    private var sourceCount = 0
    private var counts: [Int]
    private var sincePublished = 0
    /// Whether the loop is past an element a stage skipped (rather than at a new question), and
    /// how many it went through so far: the cancellation check is made on every question, and
    /// every 256 elements within one.
    private var isSkipping = false
    private var uncheckedSkips = 0

    private func publish() {
      guard counting else { return }
      sourceNode?.counters.store(sourceCount, ordering: .relaxed)
      for (node, count) in zip(nodes, counts) { node.counters.store(count, ordering: .relaxed) }
      sincePublished = 0
    }

    init(sequence: FusedSequence) {
      let steps = sequence.steps.map { $0() }
      self.steps = steps
      satisfiable = steps.indices.filter { steps[$0].canBeSatisfied }
      counts = Array(repeating: 0, count: steps.count)
      nodes = sequence.nodes
      sourceNode = sequence.sourceNode
      context = sequence.context
      lifetimes = sequence.lifetimes
      switch sequence.source {
      case .upstream(let base): upstream = base.makeAsyncIterator()
      case .integers(let from, let through, let by):
        integer = (from, through, by, by > 0 ? from > through : from < through)
      case .values(let list): values = list
      }
    }

    deinit {
      publish()
      guard !ended else { return }
      // The consumer stopped asking: every stage still running was cancelled by it.
      for node in ([sourceNode].compactMap { $0 } + nodes).reversed() where node.state == .running {
        context.cancel(node)
      }
    }

    /// The upstream's next element: the one async call of the per-element path.
    private nonisolated(nonsending) func nextFromUpstream(
      _ upstreamIterator: ValueSequence.Iterator
    ) async throws -> Value? {
      var iterator = upstreamIterator
      defer { upstream = iterator }
      return try await iterator.nextElement()
    }

    /// The next element of a source looped over directly, without an async call.
    private func nextFromFusedSource() -> Value? {
      if let values {
        guard valueIndex < values.count else { return nil }
        defer { valueIndex += 1 }
        return values[valueIndex]
      }
      guard !integer.done else { return nil }
      let value = integer.next
      let (next, overflow) = value.addingReportingOverflow(integer.step)
      if overflow || (integer.step > 0 ? next > integer.last : next < integer.last) {
        integer.done = true
      } else {
        integer.next = next
      }
      return .int(value)
    }

    func next() async throws -> Value? {
      try await nextElement()
    }

    /// The next element, on the caller's executor (`ValueSequence`'s box calls it so): no hop per
    /// element.
    nonisolated(nonsending) func nextElement() async throws -> Value? {
      if ended { return nil }
      if !started {
        started = true
        if let sourceNode { context.begin(sourceNode) }
        for node in nodes { context.begin(node) }
      }
      do {
        while true {
          // Asked from a cancelled task, every stage ends cancelled, as unfused nodes that see their
          // input end while cancelled (a `take` that has all it needs too). Looked at on every
          // question and every 256 elements a question skips over: at once, as far as anyone can
          // tell, at a fraction of the cost per element.
          uncheckedSkips &+= 1
          if uncheckedSkips & 255 == 1 || !isSkipping, Task.isCancelled || context.cancelRequested {
            cancelAll()
            return nil
          }
          // A `take` that has all it needs stops before anything more is pulled, as unfused (the one
          // nearest the consumer first: it answers without asking those before it).
          if let full = exhaustedTake() {
            stop(at: full)
            return nil
          }
          let next: Value?
          if let upstreamIterator = upstream {
            // Counts are published before each wait, so `inspect` mid-run sees what unfused nodes show.
            publish()
            next = try await nextFromUpstream(upstreamIterator)
          } else {
            next = nextFromFusedSource()
          }
          guard var value = next else {
            if Task.isCancelled {
              cancelAll()
            } else {
              finishAll()
            }
            return nil
          }
          sourceCount += 1
          sincePublished += 1
          if sincePublished >= 1024 { publish() }
          var passed = true
          var index = 0
          while index < steps.count {
            switch try steps[index].apply(value) {
            case .pass(let result):
              value = result
              counts[index] += 1
            case .skip:
              passed = false
            case .stop:
              stop(at: index)
              return nil
            }
            if !passed { break }
            index += 1
          }
          if passed {
            publish()
            isSkipping = false
            return value
          }
          isSkipping = true
        }
      } catch is CancellationError {
        cancelAll()
        throw CancellationError()
      } catch let error as PipelineError {
        // The stage that threw, by id; an error from upstream passes through every stage.
        let failing = nodes.firstIndex { $0.id == error.nodeID } ?? 0
        fail(from: failing, error)
        throw error
      } catch {
        fail(from: 0, error)
        throw error
      }
    }

    /// Stage `index` and those after it failed with `error` (it passes through them, as unfused);
    /// the ones before, and the source, are cancelled by it.
    private func fail(from index: Int, _ error: any Error) {
      publish()
      ended = true
      for node in nodes[index...] { context.fail(node, error) }
      cancelBefore(index)
    }

    /// The input ended: every stage finishes, the source first, as unfused nodes do.
    private func finishAll() {
      publish()
      ended = true
      if let sourceNode { context.finish(sourceNode) }
      for node in nodes { context.finish(node) }
    }

    /// The task was cancelled: every stage is, innermost first, each for its own first cause.
    private func cancelAll() {
      publish()
      ended = true
      if let sourceNode { context.cancel(sourceNode) }
      for node in nodes { context.cancel(node) }
    }

    /// Cancels the stages before `index` and the source, nearest first, each for the reason an
    /// unfused node would give (what became of its downstream).
    private func cancelBefore(_ index: Int) {
      publish()
      for earlier in (0..<index).reversed() {
        context.cancel(nodes[earlier])
      }
      if let sourceNode { context.cancel(sourceNode) }
    }

    private func exhaustedTake() -> Int? {
      satisfiable.last { steps[$0].isSatisfied }
    }

    /// Stage `index` has all it needs: it and those after it finish; the ones before are
    /// cancelled by it, as an unfused `take` cancels its input.
    private func stop(at index: Int) {
      publish()
      for later in index..<steps.count { context.finish(nodes[later]) }
      ended = true
      cancelBefore(index)
      // The upstream is let go of when this iterator is, as an unfused `take` lets go of its input:
      // a `tap` before says `cancelled` after what the consumer prints at the end, not before.
    }
  }
}
