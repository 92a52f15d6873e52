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
    let clock = VirtualDriver(runsKnownCode: true)
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

/// What a consumer's answer is, as a diagram holds it.
public enum ValidationEvent: Sendable, Hashable {
  case value(String)
  case finish
  /// With what the consumer caught.
  case failure(String)
}

extension ValidationRun {
  /// The consumer's answers as events; a value a string, as AA's diagrams hold.
  public var events: [(step: Int, event: ValidationEvent)] {
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
}
