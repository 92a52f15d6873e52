import Locking
import PipeSema

// swift-async-algorithms 1.1.4: `flatMapLatest(_:)`, replaced whole.
//
// What AA does: its state machine ends the iteration on the first error, but hands the error
// over only to a consumer waiting at that moment: an upstream or pipeline failure that comes
// while nobody asks is lost, and the next question gets `nil`. A question goes to the running
// pipeline only, so the upstream is not read while that pipeline is quiet (its next element,
// end or failure waits for the pipeline's next element). `FlatMapLatestStorage.startInnerTask`
// records an element's task in the state machine after making it and outside the lock (a data
// race, and an ended pipeline can be recorded as running: the iteration never finishes), and a
// consumer cancelled while an element's pipeline throws can be left waiting, so that neither
// Ctrl-C nor `cancel` ended the job.
//
// Reproduction: `AsyncAlgorithmsCanaryTests.flatMapLatestLosesOrHoldsBackAnUpstreamFailure` (the
// upstream fails after the pipeline's one element, while nobody asks: the next question never
// gets the failure). The other faults are races, seen in pipesh's transcripts before this
// replacement, without a deterministic reproduction.
//
// Workaround: `FlatMapLatestSequence`, pipesh's own, with AA's semantics (documented below) and
// every transition in `FlatMapLatestStateMachine`, which holds no lock and returns actions.
//
// To delete: when the canary reports that the known issue was not recorded, build
// `Operators.FlatMapLatest` on `input.upstream.flatMapLatest { body.sequence(for: $0) }`, delete
// this file, and run the suite (the flatMapLatest transcripts and `compare` scripts check errors,
// supersession and cancellation).

/// pipesh's own `flatMapLatest`, with the semantics of swift-async-algorithms' `flatMapLatest(_:)`:
/// the upstream is read eagerly by a task of its own; each element starts its pipeline in a task
/// and cancels the one before; only the latest pipeline's elements go out, one per `next()`; it
/// finishes once the upstream and the latest pipeline have finished, and fails at once with the
/// first error of the upstream or of the latest pipeline.
///
/// AA 1.1.4's own could not be shielded into doing this: it records an element's task outside its
/// lock (an ended pipeline taken as running: the job never ends), loses the latest pipeline's
/// error once the upstream has finished, waits for the running pipeline's next element before it
/// passes on the upstream's failure, and a consumer cancelled while an element's pipeline throws
/// leaves it waiting, so that neither Ctrl-C nor `cancel` ended the job.
struct FlatMapLatestSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let upstream: ValueSequence
  let transform: @Sendable (Value) -> ValueSequence

  func makeAsyncIterator() -> Iterator {
    Iterator(storage: FlatMapLatestStorage(upstream: upstream, transform: transform))
  }

  final class Iterator: AsyncIteratorProtocol {
    private let storage: FlatMapLatestStorage

    init(storage: FlatMapLatestStorage) {
      self.storage = storage
    }

    func next() async throws -> Value? {
      try await storage.next()
    }

    deinit {
      storage.iteratorDropped()
    }
  }
}

/// Every state and transition of one `flatMapLatest` iteration; holds no lock and causes no effect.
struct FlatMapLatestStateMachine {
  typealias Consumer = UnsafeContinuation<Value?, any Error>
  typealias DemandWaiter = UnsafeContinuation<Bool, Never>

  /// Where the iteration stands.
  enum Phase {
    /// No one has asked yet: the upstream task is not started.
    case idle
    /// The upstream task runs, or has finished and the latest element's pipeline runs.
    case running
    /// An error came while no consumer waited: it is the answer to the next question.
    case failing(any Error)
    /// The consumer got its last answer, or stopped asking: nothing more goes out.
    case terminated
  }

  /// What to do outside the lock.
  enum Action {
    /// Start the upstream task, then store it with `upstreamStarted`.
    case startUpstream
    /// Resume the waiting consumer with an element or its end.
    case resumeConsumer(Consumer, Result<Value?, any Error>)
    /// Let an element's task ask its pipeline for an element (true) or tell it to stop (false).
    case resumeDemand(DemandWaiter, Bool)
    /// Cancel these tasks, tell the waiting element's task to stop, and answer the consumer:
    /// an element was superseded, or the iteration ended.
    case stop([Task<Void, Never>], demand: DemandWaiter?, answer: (Consumer, Result<Value?, any Error>)?)
    /// Nothing to do.
    case none
  }

  private(set) var phase = Phase.idle
  private var upstreamTask: Task<Void, Never>?
  private var upstreamEnded = false
  /// The latest element's number; older pipelines' elements and ends are ignored.
  private var generation = 0
  private var latestTask: Task<Void, Never>?
  /// Whether the latest element's pipeline has finished (true before the first element).
  private var latestEnded = true
  /// The consumer waiting in `next()`.
  private var consumer: Consumer?
  /// The latest element's task, waiting for a consumer before it asks its pipeline.
  private var demand: (generation: Int, waiter: DemandWaiter)?

  private var isRunning: Bool {
    if case .running = phase { return true }
    return false
  }

  /// The consumer asks for the next element.
  mutating func nextRequested(_ continuation: Consumer) -> Action {
    switch phase {
    case .terminated:
      return .resumeConsumer(continuation, .success(nil))
    case .failing(let error):
      phase = .terminated
      return .resumeConsumer(continuation, .failure(error))
    case .idle:
      phase = .running
      consumer = continuation
      return .startUpstream
    case .running:
      consumer = continuation
      if upstreamEnded && latestEnded { return end(with: .success(nil)) }
      guard let demand, demand.generation == generation else { return .none }
      self.demand = nil
      return .resumeDemand(demand.waiter, true)
    }
  }

  /// The upstream task was made; it is cancelled at once if everything ended meanwhile.
  mutating func upstreamStarted(_ task: Task<Void, Never>) -> Action {
    guard isRunning else { return .stop([task], demand: nil, answer: nil) }
    upstreamTask = task
    return .none
  }

  /// The upstream sent an element: its generation and what to do with the pipeline before it, or
  /// nil when nothing more is wanted.
  mutating func elementArrived() -> (generation: Int, action: Action)? {
    guard isRunning else { return nil }
    generation += 1
    latestEnded = false
    let superseded = latestTask.map { [$0] } ?? []
    latestTask = nil
    let waiting = demand?.waiter
    demand = nil
    return (generation, .stop(superseded, demand: waiting, answer: nil))
  }

  /// The task of element `generation` was made.
  mutating func latestStarted(_ task: Task<Void, Never>, generation: Int) -> Action {
    guard isRunning, generation == self.generation else { return .stop([task], demand: nil, answer: nil) }
    latestTask = task
    return .none
  }

  /// Element `generation`'s task waits to ask its pipeline: at once when the consumer waits.
  mutating func demandAwaited(generation: Int, _ waiter: DemandWaiter) -> Action {
    guard isRunning, generation == self.generation else { return .resumeDemand(waiter, false) }
    if consumer != nil { return .resumeDemand(waiter, true) }
    demand = (generation, waiter)
    return .none
  }

  /// Element `generation`'s pipeline sent `value`.
  mutating func elementProduced(_ value: Value, generation: Int) -> Action {
    guard isRunning, generation == self.generation, let consumer else { return .none }
    self.consumer = nil
    return .resumeConsumer(consumer, .success(value))
  }

  /// Element `generation`'s pipeline finished.
  mutating func latestFinished(generation: Int) -> Action {
    guard isRunning, generation == self.generation else { return .none }
    latestEnded = true
    latestTask = nil
    return upstreamEnded && consumer != nil ? end(with: .success(nil)) : .none
  }

  /// The upstream finished.
  mutating func upstreamFinished() -> Action {
    guard isRunning else { return .none }
    upstreamEnded = true
    upstreamTask = nil
    return latestEnded && consumer != nil ? end(with: .success(nil)) : .none
  }

  /// The upstream (`generation` nil) or element `generation`'s pipeline failed: the first error
  /// ends everything, answered now or at the consumer's next question.
  mutating func failed(_ error: any Error, generation: Int?) -> Action {
    guard isRunning, generation == nil || generation == self.generation else { return .none }
    return end(with: .failure(error))
  }

  /// The consumer's task was cancelled, or its iterator dropped: everything stops.
  mutating func consumerLeft() -> Action {
    guard isRunning else {
      phase = .terminated
      return .none
    }
    return end(with: .success(nil))
  }

  /// Ends the iteration: every task is cancelled, and the consumer gets `answer` now or, for an
  /// error when none waits, at its next question.
  private mutating func end(with answer: Result<Value?, any Error>) -> Action {
    let tasks = [upstreamTask, latestTask].compactMap { $0 }
    upstreamTask = nil
    latestTask = nil
    let waiting = demand?.waiter
    demand = nil
    let consumer = self.consumer
    self.consumer = nil
    if consumer == nil, case .failure(let error) = answer {
      phase = .failing(error)
    } else {
      phase = .terminated
    }
    return .stop(tasks, demand: waiting, answer: consumer.map { ($0, answer) })
  }
}

/// The tasks and continuations of one `flatMapLatest` iteration around its state machine.
final class FlatMapLatestStorage: Sendable {
  private let machine = Locked(FlatMapLatestStateMachine())
  private let upstream: ValueSequence
  private let transform: @Sendable (Value) -> ValueSequence

  init(upstream: ValueSequence, transform: @escaping @Sendable (Value) -> ValueSequence) {
    self.upstream = upstream
    self.transform = transform
  }

  func next() async throws -> Value? {
    guard !Task.isCancelled else {
      perform(machine.withLock { $0.consumerLeft() })
      return nil
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: FlatMapLatestStateMachine.Consumer) in
        perform(machine.withLock { $0.nextRequested(continuation) })
      }
    } onCancel: {
      perform(machine.withLock { $0.consumerLeft() })
    }
  }

  func iteratorDropped() {
    perform(machine.withLock { $0.consumerLeft() })
  }

  private func perform(_ action: FlatMapLatestStateMachine.Action) {
    switch action {
    case .startUpstream:
      let task = TaskBook.making(.flatMapLatest) { Task { await self.readUpstream() } }
      perform(machine.withLock { $0.upstreamStarted(task) })
    case .resumeConsumer(let consumer, let result):
      consumer.resume(with: result)
    case .resumeDemand(let waiter, let ask):
      waiter.resume(returning: ask)
    case .stop(let tasks, let demand, let answer):
      for task in tasks { task.cancel() }
      demand?.resume(returning: false)
      if let (consumer, result) = answer { consumer.resume(with: result) }
    case .none:
      break
    }
  }

  /// The upstream task: every element starts its pipeline's task and cancels the one before.
  private func readUpstream() async {
    do {
      for try await element in upstream {
        // Built first: it marks the pipeline before it superseded, so that pipeline's nodes end
        // as "cancelled (newer element)".
        let pipeline = transform(element)
        guard let (generation, action) = machine.withLock({ $0.elementArrived() }) else { return }
        perform(action)
        let task = TaskBook.making(.flatMapLatest) { Task { await self.readLatest(pipeline, generation: generation) } }
        perform(machine.withLock { $0.latestStarted(task, generation: generation) })
      }
      guard !Task.isCancelled else { return }
      perform(machine.withLock { $0.upstreamFinished() })
    } catch {
      guard !Task.isCancelled else { return }
      perform(machine.withLock { $0.failed(error, generation: nil) })
    }
  }

  /// An element's task: asks its pipeline for an element only while the consumer waits for one.
  private func readLatest(_ pipeline: ValueSequence, generation: Int) async {
    var iterator = pipeline.makeAsyncIterator()
    do {
      while await demanded(generation) {
        guard let value = try await iterator.next() else {
          guard !Task.isCancelled else { return }
          return perform(machine.withLock { $0.latestFinished(generation: generation) })
        }
        perform(machine.withLock { $0.elementProduced(value, generation: generation) })
      }
    } catch {
      guard !Task.isCancelled else { return }
      perform(machine.withLock { $0.failed(error, generation: generation) })
    }
  }

  /// Waits until the consumer asks; false when this element's pipeline is no longer wanted.
  private func demanded(_ generation: Int) async -> Bool {
    guard !Task.isCancelled else { return false }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: FlatMapLatestStateMachine.DemandWaiter) in
        perform(machine.withLock { $0.demandAwaited(generation: generation, waiter) })
      }
    } onCancel: {
      // The machine resumes the waiter when it cancels the task (a newer element, the end).
    }
  }
}
