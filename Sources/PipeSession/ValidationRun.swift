import Locking
import PipeRuntime
import PipeSema
import VirtualTime

/// What `validate` saw: AA's test consumer's answers, each at its step.
public struct ValidationRun: Sendable {
  /// One answer of the consumer, at a step (the first is step 1).
  public struct Answer: Sendable, Hashable {
    public let step: Int
    public let answer: Pacing.Answer
  }

  public let answers: [Answer]
}

extension Engine {
  /// Runs a `validate` block's pipeline as AA's `AsyncSequenceValidationDiagram.test` does, on a
  /// virtual clock of its own: the consumer asks at the output diagram's steps (`Pacing`), is
  /// cancelled just before each `;` step (AA cancels it once the step before has settled, before
  /// the clock moves on), and the run stops after twice the last step any diagram names, what
  /// came later unseen. A time between steps (a cancellation's effect) counts as the next step.
  public func validationRun(_ validation: CheckedValidation) async -> ValidationRun {
    guard let end = validation.end else { return ValidationRun(answers: []) }
    let tick = validation.tick
    let pacing = Pacing(requests: validation.requests.map { tick * $0 })
    let drained = validation.pipeline.withQuietSinkIfImplicit()
    let clock = VirtualDriver()
    defer { clock.shutdown() }
    let job = jobs.start(
      drained, background: false, clock: .virtual(clock), observer: DrawObserver(), ownShares: true, pacing: pacing)
    let context = job.context
    let horizon = tick * (end * 2)
    let cancels = validation.cancelSteps.sorted()
    let driver = Task(executorPreference: clock) {
      for step in cancels where step >= 1 {
        let due = context.start.advanced(by: tick * step - .nanoseconds(1))
        guard (try? await context.clock.sleep(until: due, tolerance: nil)) != nil else { return }
        job.cancel()
      }
      guard (try? await context.clock.sleep(until: context.start.advanced(by: horizon), tolerance: nil)) != nil
      else { return }
      // Everything due at the last step has run: a nanosecond later, the rest is not seen.
      _ = try? await context.clock.sleep(until: context.start.advanced(by: horizon + .nanoseconds(1)), tolerance: nil)
      job.cancel()
    }
    await runForeground(job, on: clock)
    await clock.perform(andWait: { driver.cancel() })
    let answers = pacing.recorded.compactMap { time, answer -> ValidationRun.Answer? in
      guard time <= horizon else { return nil }
      let steps = time / tick
      let whole = Int(steps.rounded(.up))
      return ValidationRun.Answer(step: whole, answer: answer)
    }
    return ValidationRun(answers: answers)
  }
}

/// One difference between a validation's expected output and what its consumer saw, found as
/// AA's `AsyncSequenceValidationDiagram.validate` finds them: step by step, the events of a step
/// paired in order.
public struct ValidationDifference: Sendable, Hashable {
  /// What a diagram says happened: a value, the end (`|`) or a failure (`^`).
  public enum Event: Sendable, Hashable {
    case value(String)
    case finish
    case failure(String?)

    /// In words: `"C"`, `the end (|)`, `a failure (^)`.
    public var words: String {
      switch self {
      case .value(let text): "\"\(text)\""
      case .finish: "the end (|)"
      case .failure(let message?): "a failure (^: \(message))"
      case .failure(nil): "a failure (^)"
      }
    }
  }

  public let step: Int
  public let expected: Event?
  public let actual: Event?
  /// Where the expected event is written in the output diagram's text (a byte offset), if one is.
  public let offset: Int?

  /// `at step 6: expected "X", got "C"`.
  public var words: String {
    "at step \(step): expected \(expected?.words ?? "nothing"), got \(actual?.words ?? "nothing")"
  }
}

extension ValidationRun {
  /// The consumer's answers as events; a value a string, as AA's diagrams hold.
  public var events: [(step: Int, event: ValidationDifference.Event)] {
    answers.map { answer in
      switch answer.answer {
      case .value(let value):
        if case .string(let text) = value { return (answer.step, .value(text)) }
        return (answer.step, .value(value.printed))
      case .finished: return (answer.step, .finish)
      case .failed(let message): return (answer.step, .failure(message))
      }
    }
  }

  /// Every difference from `expected`, in step order; none when the output matches.
  public func differences(from expected: ValidationDiagram) -> [ValidationDifference] {
    var wanted: [Int: [(ValidationDifference.Event, Int)]] = [:]
    for entry in expected.entries {
      switch entry.event {
      case .value(let text): wanted[entry.step, default: []].append((.value(text), entry.offset))
      case .finish: wanted[entry.step, default: []].append((.finish, entry.offset))
      case .failure: wanted[entry.step, default: []].append((.failure(nil), entry.offset))
      case .cancel, .delayNext: break
      }
    }
    var seen: [Int: [ValidationDifference.Event]] = [:]
    for (step, event) in events { seen[step, default: []].append(event) }
    var differences: [ValidationDifference] = []
    for step in Set(wanted.keys).union(seen.keys).sorted() {
      let expectedEvents = wanted[step] ?? []
      let actualEvents = seen[step] ?? []
      for index in 0..<max(expectedEvents.count, actualEvents.count) {
        let expectedEvent = index < expectedEvents.count ? expectedEvents[index] : nil
        let actual = index < actualEvents.count ? actualEvents[index] : nil
        if let expectedEvent, let actual, Self.matches(expectedEvent.0, actual) { continue }
        differences.append(
          ValidationDifference(step: step, expected: expectedEvent?.0, actual: actual, offset: expectedEvent?.1))
      }
    }
    return differences
  }

  /// AA matches a failure with any failure.
  private static func matches(_ expected: ValidationDifference.Event, _ actual: ValidationDifference.Event) -> Bool {
    switch (expected, actual) {
    case (.failure, .failure): true
    default: expected == actual
    }
  }
}
