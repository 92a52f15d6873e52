import AsyncAlgorithms
import Locking
import PipeSema

/// `delay INTERVAL`: each element is passed on INTERVAL after it arrived. Arrival is stamped in
/// a `buffer(policy: .unbounded)` task, so a slow consumer does not move the stamps.
struct DelaySequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == (PipeInstant, Value) {
  typealias Element = Value
  let base: Base
  let interval: Duration
  let clock: PipeClock

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), interval: interval, clock: clock) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let interval: Duration
    let clock: PipeClock

    mutating func next() async throws -> Value? {
      guard let (arrived, value) = try await base.next() else { return nil }
      try await clock.sleep(until: arrived.advanced(by: interval), tolerance: nil)
      return value
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
        task = Task {
          do {
            for try await value in base { await channel.send(value) }
            channel.finish()
          } catch {
            channel.fail(error)
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
        group.addTask {
          var iterator = channel.makeAsyncIterator()
          return .value(try await iterator.next())
        }
        group.addTask {
          try await clock.sleep(until: deadline, tolerance: nil)
          return .timedOut
        }
        defer { group.cancelAll() }
        return try await group.next() ?? .value(nil)
      }
      switch outcome {
      case .value(let value): return value
      case .timedOut:
        throw PipelineError(stage: stage, message: "no element came for \(formatSeconds(interval))")
      }
    }
  }
}

/// `tap "LABEL"`: prints what passes and how the stream ends.
struct TapSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let label: String
  let context: JobContext

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), reporter: Reporter(label: label, context: context))
  }

  /// Prints `LABEL: cancelled` when the iterator goes away before its end.
  final class Reporter {
    let label: String
    let context: JobContext
    var ended = false

    init(label: String, context: JobContext) {
      self.label = label
      self.context = context
    }

    func say(_ text: String) { context.emit("\(label): \(text)") }

    func end(_ text: String) {
      guard !ended else { return }
      ended = true
      say(text)
    }

    deinit { end("cancelled") }
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let reporter: Reporter

    mutating func next() async throws -> Value? {
      do {
        guard let value = try await base.next() else {
          reporter.end(Task.isCancelled ? "cancelled" : "finished")
          return nil
        }
        reporter.say(value.printed)
        return value
      } catch is CancellationError {
        reporter.end("cancelled")
        throw CancellationError()
      } catch {
        reporter.end("failed: \(error)")
        throw error
      }
    }
  }
}

/// `marble "DIAGRAM"`: the diagram's events, one step per tick on the job's clock.
struct MarbleSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let diagram: MarbleDiagram
  let tick: Duration
  let clock: PipeClock
  let stage: String

  func makeAsyncIterator() -> Iterator {
    Iterator(
      events: diagram.events.flatMap { step in step.events.map { (step.step, $0) } }, tick: tick, clock: clock,
      start: clock.now, stage: stage)
  }

  struct Iterator: AsyncIteratorProtocol {
    let events: [(Int, MarbleDiagram.Event)]
    let tick: Duration
    let clock: PipeClock
    let start: PipeInstant
    let stage: String
    var index = 0

    mutating func next() async throws -> Value? {
      guard index < events.count else { return nil }
      let (step, event) = events[index]
      index += 1
      do {
        try await clock.sleep(until: start.advanced(by: tick * step), tolerance: nil)
      } catch {
        index = events.count
        return nil
      }
      switch event {
      case .value(let text): return .string(text)
      case .finish, .cancel:
        index = events.count
        return nil
      case .fail:
        index = events.count
        throw PipelineError(stage: stage, message: "failed (^ in the diagram)")
      }
    }
  }
}

/// `+1.500s`-style seconds.
func formatSeconds(_ duration: Duration, decimals: Int = 1) -> String {
  let seconds = duration.inSecondsValue
  let scale = decimals == 3 ? 1000.0 : 10.0
  let rounded = (seconds * scale).rounded() / scale
  var text = String(rounded)
  if decimals == 3 {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    text = "\(parts[0]).\(fraction.padding(to: 3))"
  }
  return text + "s"
}

extension String {
  fileprivate func padding(to length: Int) -> String {
    count >= length ? String(prefix(length)) : self + String(repeating: "0", count: length - count)
  }
}

extension Duration {
  var inSecondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
