import AsyncAlgorithms
import Locking
import PipeSema

/// `flatMap { PIPELINE } concurrency: N`: up to N elements' pipelines run at once, as child tasks
/// of a task group, and their elements go out as they come (Combine's
/// `flatMap(maxPublishers: .max(N))`). AsyncAlgorithms has no such operator: this is the task
/// group the Swift concurrency guides write, with an `AsyncThrowingChannel` between the group and
/// the consumer, so a pipeline waits while nobody asks (back pressure, as everywhere in pipesh).
///
/// The group starts with the consumer's first question. The first error of the upstream or of a
/// pipeline fails the iteration at once; the consumer's cancellation, or its iterator going away,
/// cancels the group, and with it every pipeline still running.
struct ConcurrentFlatMapSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let upstream: ValueSequence
  let limit: Int
  let transform: @Sendable (Value) -> ValueSequence

  func makeAsyncIterator() -> Iterator {
    Iterator(storage: Storage(self))
  }

  final class Iterator: AsyncIteratorProtocol {
    private let storage: Storage

    init(storage: Storage) {
      self.storage = storage
    }

    func next() async throws -> Value? {
      try await storage.next()
    }

    deinit {
      storage.stop()
    }
  }

  /// The channel, its one consumer's iterator, and the task that runs the group.
  final class Storage: Sendable {
    private let base: ConcurrentFlatMapSequence
    private let channel = AsyncThrowingChannel<Value, any Error>()
    private let producer = Locked<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))

    init(_ base: ConcurrentFlatMapSequence) {
      self.base = base
    }

    func next() async throws -> Value? {
      let start = producer.withLock { producer -> Bool in
        guard producer.task == nil, !producer.stopped else { return false }
        return true
      }
      if start {
        let task = TaskBook.making(.concurrentFlatMap) { Task { [base, channel] in await base.run(into: channel) } }
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

    /// The consumer stopped: the group and every pipeline in it are cancelled.
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

  /// Reads the upstream, starting each element's pipeline as a child task while fewer than
  /// `limit` run (else waiting for one to end first), and finishes the channel when all have.
  private func run(into channel: AsyncThrowingChannel<Value, any Error>) async {
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        var running = 0
        do {
          for try await element in upstream {
            if running == limit {
              try await group.next()
              running -= 1
            }
            let pipeline = transform(element)
            TaskBook.making(.concurrentFlatMap) {
              group.addTask {
                do {
                  for try await value in pipeline { await channel.send(value) }
                } catch is CancellationError {
                  // The group is being torn down (by an error, or the consumer): not the failure.
                  throw CancellationError()
                } catch {
                  // At once, not when the group is next asked: the upstream may be slow to come.
                  channel.fail(error)
                  throw error
                }
              }
            }
            running += 1
          }
        } catch {
          // Before the group cancels the pipelines still running, whose cancellation would
          // otherwise reach the consumer first and pass for its own (no error, status 0).
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
