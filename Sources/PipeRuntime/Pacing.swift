import Locking
import PipeSema

/// A consumer that asks on a schedule, as swift-async-algorithms' validation tests do: before its
/// N-th `next()` it sleeps until `requests[N]` on the job's clock (if that is still to come), asks
/// once more after the schedule (AA's check for an element past the end), and records what each
/// request answered and when. A job started with one runs its sink's loop this way instead of
/// asking as fast as it can (`JobTable.start(… pacing:)`); other jobs are not touched.
public final class Pacing: Sendable {
  /// What one request answered.
  public enum Answer: Sendable, Hashable {
    case value(Value)
    /// `next()` returned nil.
    case finished
    /// `next()` threw (`CancellationError` too, as AA records it: a failure).
    case failed(String)
  }

  /// When each request is made, from the job's start.
  public let requests: [Duration]
  private let answers = Locked<[(time: Duration, answer: Answer)]>([])

  public init(requests: [Duration]) {
    self.requests = requests
  }

  /// Every answer with its time from the job's start, in order.
  public var recorded: [(time: Duration, answer: Answer)] { answers.withLock { $0 } }

  func record(_ answer: Answer, at time: Duration) {
    answers.withLock { $0.append((time, answer)) }
  }
}

extension Sinks.Loop {
  /// The sink's loop for a paced job: AA's `Test.test` loop. The body (a `drain`) takes each value.
  mutating func runPaced(_ pacing: Pacing) async throws {
    let context = output.context
    var iterator = upstream.makeAsyncIterator()
    var failure: (any Error)?
    do {
      var ended = false
      for request in pacing.requests {
        let due = context.start.advanced(by: request)
        if context.clock.now < due { try await context.clock.sleep(until: due, tolerance: nil) }
        guard let value = try await iterator.nextElement() else {
          ended = true
          break
        }
        pacing.record(.value(value), at: context.elapsed)
        output.node.received.add(1, ordering: .relaxed)
        _ = try await body.receive(value, output)
      }
      // AA asks once more past the end: a value then breaks AsyncIteratorProtocol's contract, and
      // is one more answer here. After a nil it is not asked again: that nil is pipesh's answer.
      if !ended, let past = try await iterator.nextElement() {
        pacing.record(.value(past), at: context.elapsed)
      }
      pacing.record(.finished, at: context.elapsed)
    } catch {
      pacing.record(.failed(error is CancellationError ? "cancelled" : "\(error)"), at: context.elapsed)
      // The consumer catches a failure, as AA's test runner does: it is an answer, and the job
      // does not fail for it (no error is printed); a cancellation still cancels the job.
      if error is CancellationError { failure = error }
    }
    try finishPaced(failure)
  }
}
