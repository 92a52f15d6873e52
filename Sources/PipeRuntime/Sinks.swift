import PipeSema
import PipeSyntax
import Synchronization

/// How a sink's input ended.
enum SinkEnd {
  case finished
  case failed
  case cancelled
}

/// What a sink prints or sends: each result counts as the sink node's output and is an event of it.
struct SinkOutput {
  let context: JobContext
  let node: Node

  /// Passes on one result: prints `text` for it, or with `print: false` only counts it (`into`).
  func emit(_ value: Value, text: String? = nil, print: Bool = true) {
    node.counters.add(1, ordering: .relaxed)
    node.produced(at: context.sessionTime)
    if context.observing { context.record(node, .element(value)) }
    if print { context.emit(text ?? value.printed) }
  }

  /// An `into` begins to send to channel `name` and waits for a consumer: seen by a watcher only.
  func recordSending(to name: String) {
    if context.observing { context.record(node, .sending(to: name)) }
  }
}

/// What one kind of sink does with its input.
protocol SinkBody {
  /// Takes one element, waiting as it needs; false when the sink needs no more.
  mutating func receive(_ value: Value, _ output: SinkOutput) async throws -> Bool
  /// The input ended: print what is due.
  mutating func end(_ how: SinkEnd, _ output: SinkOutput) throws
}

/// A sink that takes each element without waiting, as most do (`count`, `sum`, `collect`): its
/// loop makes no async call per element into it, and a fused run before it can hand it elements
/// in one loop (`FusedSequence.Iterator.push`).
protocol SynchronousSinkBody: SinkBody {
  /// Takes one element; false when the sink needs no more (`first`).
  mutating func take(_ value: Value, _ output: SinkOutput) throws -> Bool
}

extension SynchronousSinkBody {
  mutating func receive(_ value: Value, _ output: SinkOutput) throws -> Bool {
    try take(value, output)
  }
}

/// A sink that prints one result when its input finishes (`count`, `sum`, `collect`, …).
struct Reduction: SynchronousSinkBody {
  var result: Value
  let step: (Value, Value) throws -> (result: Value, more: Bool)

  mutating func take(_ value: Value, _ output: SinkOutput) throws -> Bool {
    let (next, more) = try step(result, value)
    result = next
    return more
  }

  func end(_ how: SinkEnd, _ output: SinkOutput) {
    if how == .finished { output.emit(result) }
  }
}

/// A sink that acts on every element (`print`, `drain`, `into`).
struct ForEach: SinkBody {
  let action: @Sendable (Value, SinkOutput) async -> Void

  func receive(_ value: Value, _ output: SinkOutput) async -> Bool {
    await action(value, output)
    return true
  }

  func end(_ how: SinkEnd, _ output: SinkOutput) {}
}

/// Runs the sink of a job: the last node of the pipeline, consuming the one before it.
enum Sinks {
  /// The sink's loop, ready to run: its body made, its input and output. Made before the loop, by
  /// a synchronous function, so that the loop's frame (part of every idle job's memory, as the
  /// bottom of its task) holds these few words and not the checked stage the body was made from.
  struct Loop {
    var body: any SinkBody
    let upstream: ValueSequence
    let output: SinkOutput
    /// Whether the input is a fused run or the body takes elements without waiting: `consume`'s
    /// loop. Asked here: the cast's two copies of the body would sit in the loop's frame.
    private let consumes: Bool

    @inline(never)
    init(_ stage: CheckedStage, _ upstream: ValueSequence, _ context: JobContext, _ node: Node) throws {
      body = try makeBody(stage, upstream, context, node)
      self.upstream = upstream
      output = SinkOutput(context: context, node: node)
      consumes = upstream.isFused || body is any SynchronousSinkBody
    }

    // The sink's loop is the bottom of every job task: while the job waits, its frame is part of
    // the job's memory, so it only awaits; ending is a small function beside it.
    mutating func run() async throws {
      var failure: (any Error)?
      do {
        if consumes {
          try await consume(upstream, &body, output)
        } else {
          for try await value in upstream {
            output.node.received.add(1, ordering: .relaxed)
            guard try await receive(value, &body, output) else { break }
          }
        }
      } catch {
        failure = error
      }
      try finish(&body, output, failure)
    }

    /// The end of a paced loop (`runPaced`), as `run` ends.
    mutating func finishPaced(_ failure: (any Error)?) throws {
      try finish(&body, output, failure)
    }
  }

  /// The loop over a fused run or into a body that takes elements without waiting, the fast path:
  /// a fused run is asked on this task's executor (no hop per element), such a body is called
  /// without an async call, and the sink's tally is a plain store (it alone writes it), not an
  /// atomic add. A run that loops over its own source hands such a body every element in one loop
  /// (`push`). Apart from `Loop.run`, whose frame every idle job of the other sinks keeps.
  @inline(never)
  private static func consume(
    _ upstream: ValueSequence, _ body: inout any SinkBody, _ output: SinkOutput
  ) async throws {
    var received = 0
    var iterator = upstream.makeAsyncIterator()
    guard var synchronous = body as? any SynchronousSinkBody else {
      while let value = try await iterator.nextElement() {
        received += 1
        output.node.received.store(received, ordering: .relaxed)
        guard try await receive(value, &body, output) else { return }
      }
      return
    }
    defer { body = synchronous }
    if let run = (iterator.box as? FusedIteratorBox)?.base, run.loopsOverItsSource {
      try run.push(to: output.node) { value in try take(value, &synchronous, output) }
      return
    }
    while let value = try await iterator.nextElement() {
      received += 1
      output.node.received.store(received, ordering: .relaxed)
      guard try take(value, &synchronous, output) else { return }
    }
  }

  /// Hands one element to a body that takes it without waiting.
  private static func take(
    _ value: Value, _ body: inout any SynchronousSinkBody, _ output: SinkOutput
  ) throws -> Bool {
    do {
      return try body.take(value, output)
    } catch {
      output.context.fail(output.node, error)
      throw error
    }
  }

  @inline(never)
  private static func makeBody(
    _ stage: CheckedStage, _ upstream: ValueSequence, _ context: JobContext, _ node: Node
  ) throws -> any SinkBody {
    let input = StageInput(
      stage: stage, upstream: upstream, inputs: [], context: context, nodeID: node.id, owner: context.liveNodes)
    guard let operation = stage.operation else { throw input.bug("an argument of '\(stage.name)' not worked out") }
    guard case .sink(let makeBody) = Operators.run(operation) else { throw input.bug("no sink '\(stage.name)'") }
    let body = try makeBody(input)
    context.begin(node)
    return body
  }

  /// Hands one element to the body. A body that fails (`into` a closed channel) records it at once,
  /// before the loop lets go of its input: the input's nodes, cancelled then, see why.
  @inline(never)
  private static func receive(_ value: Value, _ body: inout any SinkBody, _ output: SinkOutput) async throws -> Bool {
    do {
      return try await body.receive(value, output)
    } catch is CancellationError {
      // Cancelled while it waited (`into`): the loop's end records the node cancelled.
      throw CancellationError()
    } catch {
      output.context.fail(output.node, error)
      throw error
    }
  }

  /// The input ended (`failure` says how, when it did not just finish): the body prints what is
  /// due and the node records its end.
  @inline(never)
  private static func finish(_ body: inout any SinkBody, _ output: SinkOutput, _ failure: (any Error)?) throws {
    let (node, context) = (output.node, output.context)
    switch failure {
    case nil:
      let cancelled = Task.isCancelled
      do {
        try body.end(cancelled ? .cancelled : .finished, output)
      } catch {
        try? body.end(.failed, output)
        context.fail(node, error)
        throw error
      }
      if cancelled {
        context.cancel(node)
        throw CancellationError()
      }
      context.finish(node)
    case is CancellationError:
      try? body.end(.cancelled, output)
      context.cancel(node)
      throw CancellationError()
    case let error?:
      try? body.end(.failed, output)
      context.fail(node, error)
      throw error
    }
  }
}
