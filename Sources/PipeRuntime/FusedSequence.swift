import PipeSema

/// One synchronous stage inside a fused node.
enum SyncStep: Sendable {
  case map(CompiledClosure)
  case filter(CompiledClosure)
  case compactMap(CompiledClosure)
  case take(Int)
  case drop(Int)
  case takeWhile(CompiledClosure)
  case dropWhile(CompiledClosure)
  case enumerated

  /// The step for a stage, or nil when the stage is not a synchronous one-in-one-out operator.
  static func make(_ input: StageInput) -> SyncStep? {
    switch input.stage.name {
    case "map": .map(input.closure("transform"))
    case "filter": .filter(input.closure("isIncluded"))
    case "compactMap": .compactMap(input.closure("transform"))
    case "take": .take(input.int("count") ?? 0)
    case "drop": .drop(input.int("count") ?? 0)
    case "takeWhile": .takeWhile(input.closure("predicate"))
    case "dropWhile": .dropWhile(input.closure("predicate"))
    case "enumerated": .enumerated
    default: nil
    }
  }
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

/// A run of synchronous stages (`map`, `filter`, `compactMap`, `take`, `drop`, `takeWhile`,
/// `dropWhile`, `enumerated`), possibly with the `range`/`from` source before them, as one node:
/// the per-element path is at most one async call (to the upstream) plus a loop over the steps,
/// instead of one async call per stage. Every fused stage keeps its own `Node` record, with the
/// same states and counts as unfused.
struct FusedSequence: AsyncSequence, Sendable {
  typealias Element = Value

  let source: FusedSource
  /// The source's node when the source is fused in.
  let sourceNode: Node?
  let steps: [SyncStep]
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
    private var steps: [SyncStep]
    /// Per step: how many elements it has let through or dropped so far, for take/drop/enumerated.
    private var seen: [Int]
    private var dropping: [Bool]
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

    private func publish() {
      guard counting else { return }
      sourceNode?.counters.store(sourceCount, ordering: .relaxed)
      for (node, count) in zip(nodes, counts) { node.counters.store(count, ordering: .relaxed) }
      sincePublished = 0
    }

    init(sequence: FusedSequence) {
      steps = sequence.steps
      seen = Array(repeating: 0, count: steps.count)
      counts = Array(repeating: 0, count: steps.count)
      dropping = Array(repeating: true, count: steps.count)
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
        _ = node.ended(.cancelled, reason: node.cancellationReason(jobCancelled: context.cancelRequested))
      }
    }

    private func nextFromSource() async throws -> Value? {
      if let upstreamIterator = upstream {
        var iterator = upstreamIterator
        defer { upstream = iterator }
        return try await iterator.next()
      }
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

    /// Ends the stages from `index` on (nil: all) as `state`; stages before stay as they are.
    private func end(_ state: NodeState, from index: Int, reason: String? = nil) {
      for node in nodes[index...] { _ = node.ended(state, reason: reason) }
    }

    func next() async throws -> Value? {
      if ended { return nil }
      if !started {
        started = true
        if let sourceNode { _ = sourceNode.started() }
        for node in nodes { _ = node.started() }
      }
      do {
        while true {
          // A `take` that has all it needs stops before anything more is pulled, as unfused.
          if let full = exhaustedTake() {
            stop(at: full)
            return nil
          }
          if Task.isCancelled || context.cancelRequested {
            finish(.cancelled, reason: "job cancelled")
            return nil
          }
          guard var value = try await nextFromSource() else {
            finish(.finished)
            return nil
          }
          sourceCount += 1
          sincePublished += 1
          if sincePublished >= 1024 { publish() }
          var passed = true
          var index = 0
          while index < steps.count {
            switch try apply(index, value) {
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
          if passed { return value }
        }
      } catch let error as PipelineError {
        // The stage that threw, by id; an error from upstream passes through every stage.
        let failing = nodes.firstIndex { $0.id == error.nodeID } ?? 0
        publish()
        for node in nodes[failing...] { _ = node.ended(.failed, reason: "\(error)") }
        ended = true
        cancelBefore(failing)
        throw error
      } catch {
        finish(.failed, reason: "\(error)")
        throw error
      }
    }

    /// Cancels the stages before `index` and the source, nearest first, each for the reason an
    /// unfused node would give (what became of its downstream).
    private func cancelBefore(_ index: Int) {
      publish()
      for earlier in (0..<index).reversed() {
        _ = nodes[earlier].ended(
          .cancelled, reason: nodes[earlier].cancellationReason(jobCancelled: context.cancelRequested))
      }
      if let sourceNode {
        _ = sourceNode.ended(.cancelled, reason: sourceNode.cancellationReason(jobCancelled: context.cancelRequested))
      }
    }

    private func exhaustedTake() -> Int? {
      for (index, step) in steps.enumerated() {
        if case .take(let count) = step, seen[index] >= count { return index }
      }
      return nil
    }

    /// Stage `index` has all it needs: it and those after it finish; the ones before are
    /// cancelled by it, as an unfused `take` cancels its input.
    private func stop(at index: Int) {
      publish()
      for later in index..<steps.count { _ = nodes[later].ended(.finished) }
      ended = true
      cancelBefore(index)
      upstream = nil
    }

    private func finish(_ state: NodeState, reason: String? = nil) {
      publish()
      ended = true
      if let sourceNode { _ = sourceNode.ended(state, reason: reason) }
      end(state, from: 0, reason: reason)
    }

    private enum Outcome {
      case pass(Value)
      case skip
      case stop
    }

    private func apply(_ index: Int, _ value: Value) throws(PipelineError) -> Outcome {
      switch steps[index] {
      case .map(let transform):
        return .pass(try transform(value, .none))
      case .filter(let predicate):
        return try predicate(value, .none) == .bool(true) ? .pass(value) : .skip
      case .compactMap(let transform):
        let result = try transform(value, .none)
        return result == .none ? .skip : .pass(result)
      case .take:
        seen[index] += 1
        return .pass(value)
      case .drop(let count):
        guard seen[index] >= count else {
          seen[index] += 1
          return .skip
        }
        return .pass(value)
      case .takeWhile(let predicate):
        return try predicate(value, .none) == .bool(true) ? .pass(value) : .stop
      case .dropWhile(let predicate):
        if dropping[index], try predicate(value, .none) == .bool(true) { return .skip }
        dropping[index] = false
        return .pass(value)
      case .enumerated:
        defer { seen[index] += 1 }
        return .pass(.tuple([.int(seen[index]), value]))
      }
    }
  }
}
