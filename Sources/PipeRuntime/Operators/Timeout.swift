import AsyncAlgorithms
import Locking
import PipeEvaluator
import PipeSema
import VirtualTime

extension Operators {
  /// `timeout`: fails the job when no element came for INTERVAL.
  enum Timeout {
    static func run(interval: Duration) -> Run {
      .node(
        build: { input in
          ValueSequence(
            TimeoutSequence(
              base: input.upstream, interval: interval, clock: input.clock,
              stage: input.stage.text))
        })
    }
  }
}

/// `timeout INTERVAL`: fails when no element came for INTERVAL. A pump task moves the input into
/// an `AsyncThrowingChannel`; each request races the channel against the clock.
struct TimeoutSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let interval: Duration
  let clock: PipeClock
  let stage: String

  func makeAsyncIterator() -> Iterator {
    Iterator(pump: Pump(base: base), interval: interval, clock: clock, stage: stage)
  }

  /// Owns the pump task; cancels it when the iterator goes away.
  final class Pump: Sendable {
    let channel = AsyncThrowingChannel<Value, any Error>()
    private let task = Locked<Task<Void, Never>?>(nil)
    private let base: ValueSequence

    init(base: ValueSequence) {
      self.base = base
    }

    func startIfNeeded() {
      task.withLock { task in
        guard task == nil else { return }
        let channel = self.channel
        let base = self.base
        task = TaskBook.making(.timeout) {
          Task {
            do {
              for try await value in base { await channel.send(value) }
              channel.finish()
            } catch {
              channel.fail(error)
            }
          }
        }
      }
    }

    deinit {
      task.withLock { $0?.cancel() }
    }
  }

  enum Outcome: Sendable {
    case value(Value?)
    case timedOut
  }

  struct Iterator: AsyncIteratorProtocol {
    let pump: Pump
    let interval: Duration
    let clock: PipeClock
    let stage: String

    mutating func next() async throws -> Value? {
      pump.startIfNeeded()
      let channel = pump.channel
      let deadline = clock.now.advanced(by: interval)
      let clock = self.clock
      let outcome = try await withThrowingTaskGroup(of: Outcome.self) { group in
        TaskBook.making(.timeout) {
          group.addTask {
            var iterator = channel.makeAsyncIterator()
            return .value(try await iterator.next())
          }
          group.addTask {
            try await clock.sleep(until: deadline, tolerance: nil)
            return .timedOut
          }
        }
        defer { group.cancelAll() }
        return try await group.next() ?? .value(nil)
      }
      switch outcome {
      case .value(let value): return value
      case .timedOut:
        throw PipelineError(stage: stage, message: "no element came for \(interval.exactText)")
      }
    }
  }
}
