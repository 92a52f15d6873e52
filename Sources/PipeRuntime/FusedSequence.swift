import PipeEvaluator
import PipeSema

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
/// `FusedSource` before them, as one node: the per-element path is at most one async call (to the
/// upstream, or none with a fused source before a sink that does not wait: `push`) plus a call
/// into the steps compiled into closures (`FusedChain`), instead of one async call per stage.
/// Every fused stage keeps its own `Node` record, with the same states and counts as unfused.
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
    @exclusivity(unchecked) private var integer: (next: Int, last: Int, step: Int, done: Bool) = (0, 0, 1, true)
    private var values: [Value]?
    @exclusivity(unchecked) private var valueIndex = 0
    private let steps: [any FusedStep]
    /// The steps, compiled into one closure.
    private let chain: FusedChain
    /// The steps that can have all they need (`take`), nearest the consumer last.
    private let satisfiable: [Int]
    private let nodes: [Node]
    private let sourceNode: Node?
    private let context: JobContext
    private let lifetimes: [NodeLifetime]
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var ended = false
    private let counting = Instrumentation.isOn
    /// Elements out of the source and of each step, counted here and published to the nodes every
    /// 1,024 elements and at the end, so the hot loop makes no atomic operation.
    @exclusivity(unchecked) private var sourceCount = 0
    private let counts: UnsafeMutableBufferPointer<Int>
    @exclusivity(unchecked) private var sincePublished = 0
    /// Whether the loop is past an element a stage skipped (rather than at a new question), and
    /// how many it went through so far: the cancellation check is made on every question, and
    /// every 256 elements within one.
    @exclusivity(unchecked) private var isSkipping = false
    @exclusivity(unchecked) private var uncheckedSkips = 0

    /// The sink `push` hands elements to, and how many it handed.
    private var sinkNode: Node?
    @exclusivity(unchecked) private var handed = 0

    private func publish() {
      guard counting else { return }
      sourceNode?.counters.store(sourceCount, ordering: .relaxed)
      for (node, count) in zip(nodes, counts) { node.counters.store(count, ordering: .relaxed) }
      sinkNode?.received.store(handed, ordering: .relaxed)
      sincePublished = 0
    }

    init(sequence: FusedSequence) {
      let steps = sequence.steps.map { $0() }
      self.steps = steps
      chain = FusedChain(steps)
      satisfiable = steps.indices.filter { steps[$0].canBeSatisfied }
      counts = .allocate(capacity: steps.count)
      counts.initialize(repeating: 0)
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
      defer { counts.deallocate() }
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

    /// The next Int of a `range`.
    private func nextInteger() -> Int? {
      guard !integer.done else { return nil }
      let value = integer.next
      let (next, overflow) = value.addingReportingOverflow(integer.step)
      if overflow || (integer.step > 0 ? next > integer.last : next < integer.last) {
        integer.done = true
      } else {
        integer.next = next
      }
      return value
    }

    /// The next element of a source looped over directly, taken through the steps (`chain` is
    /// `self.chain`, which a loop reads once: read per element, it is retained per element): no
    /// async call. Nil at the source's end.
    @inline(__always)
    private func passNextOfSource(_ chain: borrowing FusedChain) throws(PipelineError) -> Passage? {
      if let values {
        guard valueIndex < values.count else { return nil }
        defer { valueIndex += 1 }
        countFromSource()
        return try chain.pass(values[valueIndex], counts.baseAddress.unsafelyUnwrapped)
      }
      guard let integer = nextInteger() else { return nil }
      countFromSource()
      return try chain.pass(integer: integer, counts.baseAddress.unsafelyUnwrapped)
    }

    private func countFromSource() {
      sourceCount += 1
      sincePublished += 1
      if sincePublished >= 1024 { publish() }
    }

    func next() async throws -> Value? {
      try await nextElement()
    }

    private func markAsked(_ asked: Bool) {
      sourceNode?.asked(asked)
      for node in nodes { node.asked(asked) }
    }

    private func begin() {
      guard !started else { return }
      started = true
      markAsked(false)
      if let sourceNode { context.begin(sourceNode) }
      for node in nodes { context.begin(node) }
    }

    /// Asked from a cancelled task, every stage ends cancelled, as unfused nodes that see their
    /// input end while cancelled (a `take` that has all it needs too). Looked at on every question
    /// and every 256 elements a question skips over (`push`: every 256): at once, as far as anyone
    /// can tell, at a fraction of the cost per element.
    private func isCancelled(onQuestion: Bool) -> Bool {
      uncheckedSkips &+= 1
      return (uncheckedSkips & 255 == 1 || onQuestion) && (Task.isCancelled || context.cancelRequested)
    }

    /// The next element, on the caller's executor (`ValueSequence`'s box calls it so): no hop per
    /// element.
    nonisolated(nonsending) func nextElement() async throws -> Value? {
      if ended { return nil }
      begin()
      do {
        while true {
          if isCancelled(onQuestion: !isSkipping) {
            cancelAll()
            return nil
          }
          // A `take` that has all it needs stops before anything more is pulled, as unfused (the one
          // nearest the consumer first: it answers without asking those before it).
          if let full = exhaustedTake() {
            stop(at: full)
            return nil
          }
          let passage: Passage?
          if let upstreamIterator = upstream {
            // Counts are published before each wait, so `inspect` mid-run sees what unfused nodes show.
            publish()
            // Its nodes are asked as one while it waits for its upstream (`top`'s WAITS ON); the rest
            // of a question is answered at once.
            markAsked(true)
            defer { markAsked(false) }
            passage = try await nextFromUpstream(upstreamIterator).map { value throws(PipelineError) in
              countFromSource()
              return try chain.pass(value, counts.baseAddress.unsafelyUnwrapped)
            }
          } else {
            passage = try passNextOfSource(chain)
          }
          switch passage {
          case nil:
            endOfInput()
            return nil
          case .passed(let value):
            publish()
            isSkipping = false
            return value
          case .skipped:
            isSkipping = true
          case .stopped(let index):
            stop(at: index)
            return nil
          }
        }
      } catch is CancellationError {
        cancelAll()
        throw CancellationError()
      } catch let error as PipelineError {
        fail(error)
        throw error
      } catch {
        fail(from: 0, error)
        throw error
      }
    }

    /// Whether its source is looped over directly (`range`, `from`), so that `push` can run it.
    var loopsOverItsSource: Bool { upstream == nil }

    /// Runs the source to its end, or until `sink` needs no more (says false), handing it every
    /// element that passes the steps: one loop with no async call per element, for a source
    /// looped over directly and a sink that takes elements without waiting. The sink's tally
    /// (`sinkNode`'s `received`) is published with the run's counts, so `inspect` mid-run reads
    /// them from one moment. An error of the sink's passes through, as unfused.
    func push(to sinkNode: Node, _ sink: (Value) throws -> Bool) throws {
      guard !ended else { return }
      begin()
      markAsked(true)
      defer { markAsked(false) }
      self.sinkNode = sinkNode
      let chain = self.chain
      while true {
        if isCancelled(onQuestion: false) {
          cancelAll()
          return
        }
        if let full = exhaustedTake() {
          stop(at: full)
          return
        }
        let passage: Passage?
        do {
          passage = try passNextOfSource(chain)
        } catch {
          fail(error)
          throw error
        }
        switch passage {
        case nil:
          endOfInput()
          return
        case .passed(let value):
          handed += 1
          guard try sink(value) else { return }
        case .skipped:
          continue
        case .stopped(let index):
          stop(at: index)
          return
        }
      }
    }

    /// The input ended: every stage finishes, or, asked from a cancelled task, is cancelled.
    private func endOfInput() {
      if Task.isCancelled {
        cancelAll()
      } else {
        finishAll()
      }
    }

    /// A stage failed: the error names it by id; one from upstream passes through every stage.
    private func fail(_ error: PipelineError) {
      fail(from: nodes.firstIndex { $0.id == error.nodeID } ?? 0, error)
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
      if satisfiable.isEmpty { return nil }
      return satisfiable.last { steps[$0].isSatisfied }
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
