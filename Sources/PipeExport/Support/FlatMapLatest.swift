import AsyncAlgorithms
import Foundation
import Synchronization

// swift-async-algorithms 1.1.4's `flatMapLatest` hands an error over only to a consumer waiting at
// that moment (one that comes while nobody asks is lost: the next question gets nil), reads the
// upstream only while the running pipeline yields, and records an element's task outside its
// lock (an ended pipeline taken as running: the iteration never ends). Below is the replacement
// pipesh runs (Sources/PipeRuntime/Workarounds/FlatMapLatestLosesFailures.swift), with AA's
// semantics: use AA's `flatMapLatest` again once a release fixes it.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// AA's `flatMapLatest`, as pipesh runs it: each element starts its pipeline and cancels the
  /// one before; only the latest pipeline's elements go out; the first error ends it.
  fileprivate func flatMapLatestFixed<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> LatestFlatMap<Self, Inner> where Inner.Element: Sendable {
    LatestFlatMap(base: self, transform: transform)
  }
}

/// The upstream is read by a task of its own; each element's pipeline runs in a task, asked for
/// an element only while the consumer waits for one; it ends when both have ended.
struct LatestFlatMap<Base: AsyncSequence, Inner: AsyncSequence>: AsyncSequence, Sendable
where Base: Sendable, Inner: Sendable, Base.Element: Sendable, Inner.Element: Sendable {
  let base: Base
  let transform: @Sendable (Base.Element) -> Inner

  func makeAsyncIterator() -> Iterator {
    Iterator(storage: LatestFlatMapStorage(base: base, transform: transform))
  }

  final class Iterator: AsyncIteratorProtocol {
    private let storage: LatestFlatMapStorage<Base, Inner>

    init(storage: LatestFlatMapStorage<Base, Inner>) { self.storage = storage }

    func next() async throws -> Inner.Element? { try await storage.next() }

    deinit { storage.consumerLeft() }
  }
}

/// Every state and transition of one iteration; holds no lock and causes no effect.
struct LatestFlatMapMachine<Element: Sendable> {
  typealias Consumer = UnsafeContinuation<Element?, any Error>
  typealias Demand = UnsafeContinuation<Bool, Never>

  enum Phase {
    /// No one has asked yet.
    case idle
    /// The upstream runs, or has ended and the latest pipeline runs.
    case running
    /// An error came while no consumer waited: the answer to the next question.
    case failing(any Error)
    /// Nothing more goes out.
    case terminated
  }

  enum Action {
    /// Start the upstream's task.
    case startUpstream
    /// Answer the consumer.
    case answer(Consumer, Result<Element?, any Error>)
    /// Let an element's task ask its pipeline (true) or stop it (false).
    case demand(Demand, Bool)
    /// Cancel tasks, stop a waiting element's task, answer the consumer.
    case stop([Task<Void, Never>], Demand?, (Consumer, Result<Element?, any Error>)?)
    case none
  }

  private(set) var phase = Phase.idle
  private var upstreamTask: Task<Void, Never>?
  private var upstreamEnded = false
  private var generation = 0
  private var latestTask: Task<Void, Never>?
  private var latestEnded = true
  private var consumer: Consumer?
  private var demand: (generation: Int, waiter: Demand)?

  private var isRunning: Bool {
    if case .running = phase { return true }
    return false
  }

  mutating func nextRequested(_ continuation: Consumer) -> Action {
    switch phase {
    case .terminated: return .answer(continuation, .success(nil))
    case .failing(let error):
      phase = .terminated
      return .answer(continuation, .failure(error))
    case .idle:
      phase = .running
      consumer = continuation
      return .startUpstream
    case .running:
      consumer = continuation
      if upstreamEnded && latestEnded { return end(with: .success(nil)) }
      guard let demand, demand.generation == generation else { return .none }
      self.demand = nil
      return .demand(demand.waiter, true)
    }
  }

  mutating func upstreamStarted(_ task: Task<Void, Never>) -> Action {
    guard isRunning else { return .stop([task], nil, nil) }
    upstreamTask = task
    return .none
  }

  mutating func elementArrived() -> (generation: Int, action: Action)? {
    guard isRunning else { return nil }
    generation += 1
    latestEnded = false
    let superseded = latestTask.map { [$0] } ?? []
    latestTask = nil
    let waiting = demand?.waiter
    demand = nil
    return (generation, .stop(superseded, waiting, nil))
  }

  mutating func latestStarted(_ task: Task<Void, Never>, generation: Int) -> Action {
    guard isRunning, generation == self.generation else { return .stop([task], nil, nil) }
    latestTask = task
    return .none
  }

  mutating func demandAwaited(generation: Int, _ waiter: Demand) -> Action {
    guard isRunning, generation == self.generation else { return .demand(waiter, false) }
    if consumer != nil { return .demand(waiter, true) }
    demand = (generation, waiter)
    return .none
  }

  mutating func elementProduced(_ value: Element, generation: Int) -> Action {
    guard isRunning, generation == self.generation, let consumer else { return .none }
    self.consumer = nil
    return .answer(consumer, .success(value))
  }

  mutating func latestFinished(generation: Int) -> Action {
    guard isRunning, generation == self.generation else { return .none }
    latestEnded = true
    latestTask = nil
    return upstreamEnded && consumer != nil ? end(with: .success(nil)) : .none
  }

  mutating func upstreamFinished() -> Action {
    guard isRunning else { return .none }
    upstreamEnded = true
    upstreamTask = nil
    return latestEnded && consumer != nil ? end(with: .success(nil)) : .none
  }

  /// The upstream (`generation` nil) or the latest pipeline failed.
  mutating func failed(_ error: any Error, generation: Int?) -> Action {
    guard isRunning, generation == nil || generation == self.generation else { return .none }
    return end(with: .failure(error))
  }

  mutating func consumerLeft() -> Action {
    guard isRunning else {
      phase = .terminated
      return .none
    }
    return end(with: .success(nil))
  }

  private mutating func end(with answer: Result<Element?, any Error>) -> Action {
    let tasks = [upstreamTask, latestTask].compactMap { $0 }
    (upstreamTask, latestTask) = (nil, nil)
    let waiting = demand?.waiter
    demand = nil
    let consumer = self.consumer
    self.consumer = nil
    if consumer == nil, case .failure(let error) = answer {
      phase = .failing(error)
    } else {
      phase = .terminated
    }
    return .stop(tasks, waiting, consumer.map { ($0, answer) })
  }
}

/// The tasks and continuations of one iteration around its machine.
final class LatestFlatMapStorage<Base: AsyncSequence, Inner: AsyncSequence>: Sendable
where Base: Sendable, Inner: Sendable, Base.Element: Sendable, Inner.Element: Sendable {
  private let machine = Mutex(LatestFlatMapMachine<Inner.Element>())
  private let base: Base
  private let transform: @Sendable (Base.Element) -> Inner

  init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
    self.base = base
    self.transform = transform
  }

  func next() async throws -> Inner.Element? {
    guard !Task.isCancelled else {
      consumerLeft()
      return nil
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        perform(machine.withLock { $0.nextRequested(continuation) })
      }
    } onCancel: {
      consumerLeft()
    }
  }

  func consumerLeft() {
    perform(machine.withLock { $0.consumerLeft() })
  }

  private func perform(_ action: LatestFlatMapMachine<Inner.Element>.Action) {
    switch action {
    case .startUpstream:
      let task = Task { await self.readUpstream() }
      perform(machine.withLock { $0.upstreamStarted(task) })
    case .answer(let consumer, let result):
      consumer.resume(with: result)
    case .demand(let waiter, let ask):
      waiter.resume(returning: ask)
    case .stop(let tasks, let demand, let answer):
      for task in tasks { task.cancel() }
      demand?.resume(returning: false)
      if let (consumer, result) = answer { consumer.resume(with: result) }
    case .none:
      break
    }
  }

  private func readUpstream() async {
    do {
      for try await element in base {
        let pipeline = transform(element)
        guard let (generation, action) = machine.withLock({ $0.elementArrived() }) else { return }
        perform(action)
        let task = Task { await self.readLatest(pipeline, generation: generation) }
        perform(machine.withLock { $0.latestStarted(task, generation: generation) })
      }
      guard !Task.isCancelled else { return }
      perform(machine.withLock { $0.upstreamFinished() })
    } catch {
      guard !Task.isCancelled else { return }
      perform(machine.withLock { $0.failed(error, generation: nil) })
    }
  }

  private func readLatest(_ pipeline: Inner, generation: Int) async {
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

  /// Waits until the consumer asks; false when this pipeline is no longer wanted.
  private func demanded(_ generation: Int) async -> Bool {
    guard !Task.isCancelled else { return false }
    return await withUnsafeContinuation { waiter in
      perform(machine.withLock { $0.demandAwaited(generation: generation, waiter) })
    }
  }
}
