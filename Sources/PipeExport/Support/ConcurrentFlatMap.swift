import AsyncAlgorithms
import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `flatMap { … } concurrency: N` (Combine's `flatMap(maxPublishers: .max(N))`), as
  /// pipesh runs it: up to `limit` inner sequences at once, as child tasks of a task group started
  /// by the first question, their elements sent through an `AsyncThrowingChannel` (each waits until
  /// the consumer asks); the first error ends it, and the consumer's cancellation, or its iterator
  /// going away, cancels the group.
  fileprivate func flatMap<Inner: AsyncSequence & Sendable>(
    concurrency limit: Int, _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> ConcurrentFlatMap<Self, Inner> where Inner.Element: Sendable {
    ConcurrentFlatMap(base: self, limit: limit, transform: transform)
  }
}

/// What `flatMap(concurrency:_:)` returns.
struct ConcurrentFlatMap<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>
where Base.Element: Sendable, Inner.Element: Sendable {
  typealias Element = Inner.Element
  let base: Base
  let limit: Int
  let transform: @Sendable (Base.Element) async throws -> Inner

  func makeAsyncIterator() -> Iterator {
    Iterator(storage: Storage(self))
  }

  final class Iterator: AsyncIteratorProtocol {
    private let storage: Storage

    init(storage: Storage) {
      self.storage = storage
    }

    func next() async throws -> Element? {
      try await storage.next()
    }

    deinit {
      storage.stop()
    }
  }

  /// The channel, and the task that runs the group.
  final class Storage: Sendable {
    private let sequence: ConcurrentFlatMap
    private let channel = AsyncThrowingChannel<Element, any Error>()
    private let producer = Mutex<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))

    init(_ sequence: ConcurrentFlatMap) {
      self.sequence = sequence
    }

    func next() async throws -> Element? {
      let start = producer.withLock { $0.task == nil && !$0.stopped }
      if start {
        let task = Task { [sequence, channel] in await sequence.run(into: channel) }
        let keep = producer.withLock { producer -> Bool in
          guard !producer.stopped else { return false }
          producer.task = task
          return true
        }
        if !keep { task.cancel() }
      }
      var iterator = channel.makeAsyncIterator()
      return try await withTaskCancellationHandler {
        try await iterator.next()
      } onCancel: {
        stop()
      }
    }

    func stop() {
      let task = producer.withLock { producer -> Task<Void, Never>? in
        producer.stopped = true
        defer { producer.task = nil }
        return producer.task
      }
      task?.cancel()
      channel.finish()
    }
  }

  private func run(into channel: AsyncThrowingChannel<Element, any Error>) async {
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        var running = 0
        do {
          for try await element in base {
            if running == limit {
              try await group.next()
              running -= 1
            }
            let inner = try await transform(element)
            group.addTask {
              do {
                for try await value in inner { await channel.send(value) }
              } catch is CancellationError {
                throw CancellationError()
              } catch {
                channel.fail(error)
                throw error
              }
            }
            running += 1
          }
        } catch {
          channel.fail(error)
          throw error
        }
        try await group.waitForAll()
      }
      channel.finish()
    } catch {
      channel.fail(error)
    }
  }
}

extension ConcurrentFlatMap: AsyncSequence, Sendable {}
