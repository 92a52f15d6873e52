import Locking
@_exported import MarbleDiagrams

extension Marbles {
  /// Runs the sequence `build` makes on a `TestClock` and records what it does as a diagram in
  /// swift-async-algorithms' notation: an element at virtual time `t` in step `max(1, t / step)`
  /// (rounded down), written as its `description`; `|` when it finishes, `^` when it throws.
  ///
  /// The sequence is consumed as fast as it produces (the consumer asks for the next element as
  /// soon as it has one). Time stands still while any task of the run can run, and jumps to the
  /// next deadline when all wait, so the recording takes no real time and is the same every run.
  ///
  /// - Parameters:
  ///   - step: how much virtual time one character of the diagram stands for.
  ///   - horizon: when to stop consuming (the consuming task is cancelled then); nil: run until the
  ///     sequence ends, or until nothing can happen any more (every task waits and none sleeps on
  ///     the clock), when the recording ends without an end marker.
  ///   - markingCancellation: whether to write `;` at the horizon when it cancels the sequence.
  ///   - build: makes the sequence; it runs inside the run, so tasks it starts are the run's. It may
  ///     throw (Swift's `prefix(while:)` rethrows where its input can fail, `MarbleInput.init`
  ///     throws): an error is recorded as the sequence failing (`^`) at once.
  ///
  /// Runs are serialized within a process: one recording (or `expectMarbles`, or
  /// `TestClock.run`) at a time, each on a virtual clock of its own whose one thread runs all its
  /// tasks; parallel tests wait for each other.
  public static func record<Recorded: AsyncSequence & SendableMetatype>(
    step: Duration = .seconds(1), until horizon: Duration? = nil, markingCancellation: Bool = false,
    _ build: @escaping @Sendable (TestClock) throws -> Recorded
  ) async -> Marbles {
    await record(step: step, until: horizon, markingCancellation: markingCancellation, pacing: [], build)
  }

  /// `record`, in the order that `explore` named with `token` (`MarbleOutcome.token`); nil when the
  /// token is not one of this run's orders (malformed, or its choices do not fit the run).
  public static func record<Recorded: AsyncSequence & SendableMetatype>(
    step: Duration = .seconds(1), until horizon: Duration? = nil, order token: String,
    _ build: @escaping @Sendable (TestClock) throws -> Recorded
  ) async -> Marbles? {
    guard let choices = MarbleOrder.choices(token) else { return nil }
    let order = MarbleOrder(replaying: choices)
    let marbles = await record(
      step: step, until: horizon, markingCancellation: false, pacing: [], order: order, build)
    return order.misfit ? nil : marbles
  }

  /// `record`, its consumer asking for each element no earlier than the step `pacing` gives it
  /// (the first request at the first entry, and so on), then as fast as the sequence produces:
  /// swift-async-algorithms' test consumer, which a diagram's `,` (delay-next) slows down.
  static func record<Recorded: AsyncSequence & SendableMetatype>(
    step: Duration, until horizon: Duration?, markingCancellation: Bool, pacing: [Int], order: MarbleOrder? = nil,
    _ build: @escaping @Sendable (TestClock) throws -> Recorded
  ) async -> Marbles {
    let recorder = Recorder(step: step)
    await TestDriver.shared.run(order: order) {
      let root = order?.beginOwn()
      defer { order?.endOwn(root) }
      let clock = TestClock()
      await withTaskGroup(of: Void.self) { group in
        if let horizon {
          // First, and waited for until it is marked the recorder's: so it is no choice at all, not
          // even among the sequence's first tasks.
          await withUnsafeContinuation { (marked: UnsafeContinuation<Void, Never>) in
            group.addTask {
              let own = order?.beginOwn()
              defer { order?.endOwn(own) }
              marked.resume()
              try? await clock.sleep(until: .zero.advanced(by: horizon))
            }
          }
        }
        group.addTask {
          do {
            var iterator = try build(clock).makeAsyncIterator()
            var requests = pacing.makeIterator()
            while true {
              if let request = requests.next(), clock.now < .zero.advanced(by: step * request) {
                try await clock.sleep(until: .zero.advanced(by: step * request))
              }
              guard let element = try await iterator.next() else { break }
              recorder.add(.value(String(describing: element)), at: clock.now)
            }
            recorder.add(.finished, at: clock.now)
          } catch {
            recorder.add(.failed, at: clock.now)
          }
        }
        await group.next()
        if let horizon, clock.now >= .zero.advanced(by: horizon) {
          recorder.close(at: clock.now, marking: markingCancellation)
        }
        group.cancelAll()
      }
    }
    // A lane that ended stops at its end; one cut at the horizon runs to it.
    let events = recorder.events
    let length = events.contains { $0.event.isEnd } ? 0 : horizon.map { recorder.stepOf($0) } ?? 0
    return Marbles(events: events, length: length)
  }
}

/// Events recorded by a run's consuming task, read by the caller after the run.
final class Recorder: Sendable {
  private struct State {
    var events: [(step: Int, event: Marbles.Event)] = []
    var closed = false
  }

  private let step: Duration
  private let state = Locked(State())

  init(step: Duration) { self.step = step }

  func stepOf(_ time: Duration) -> Int {
    let attoseconds = { (duration: Duration) -> Int128 in
      Int128(duration.components.seconds) * 1_000_000_000_000_000_000 + Int128(duration.components.attoseconds)
    }
    let unit = attoseconds(step)
    guard unit > 0 else { return 1 }
    return max(1, Int(clamping: attoseconds(time) / unit))
  }

  func add(_ event: Marbles.Event, at instant: TestClock.Instant) {
    let step = stepOf(instant.offset)
    state.withLock { state in
      if !state.closed { state.events.append((step, event)) }
    }
  }

  /// The horizon: what the sequence does after it is not recorded.
  func close(at instant: TestClock.Instant, marking: Bool) {
    let step = stepOf(instant.offset)
    state.withLock { state in
      guard !state.closed else { return }
      if marking, !state.events.contains(where: { $0.event.isEnd }) { state.events.append((step, .cancelled)) }
      state.closed = true
    }
  }

  var events: [(step: Int, event: Marbles.Event)] { state.withLock { $0.events } }
}
