import AsyncAlgorithms
import PipeSema
import VirtualTime

// swift-async-algorithms 1.1.4: `debounce(for:clock:)` asked from a task cancelled before it asks.
//
// What AA does: when the task calling the debounce's `next()` is already cancelled, the
// cancellation handler runs before the question registers its demand; in the `waitingForDemand`
// state (an element was handed over, the iteration task waits for the next demand)
// `DebounceStateMachine.cancelled()` moves to `finished` without ending the iteration task. That
// task then waits for demand forever and keeps the upstream, and so the job, alive. In pipesh the
// consumer is cancelled between two elements when `zip` ends the other side, or `take` is done.
//
// Reproduction: `AsyncAlgorithmsCanaryTests.debounceAskedFromACancelledTaskKeepsItsUpstream`
// (one element through a debounce, then `next()` from a cancelled task: the upstream iterator is
// never released).
//
// Workaround: `ShieldedDebounce`. The debounce's `next()` runs in a task of its own that nobody
// cancels (one task for the whole iteration, an `Asker`, not one per element); a cancelled consumer stops the upstream instead (`StoppableUpstream`, in
// `UpstreamStop.swift`), which then answers `nil` and ends the debounce the way a finished
// upstream does (its iteration task ends, its clock task too).
//
// To delete: when the canary reports that the known issue was not recorded, build
// `Operators.Debounce` on `input.upstream.debounce(for:clock:)` directly, delete this file and
// `UpstreamStop.swift`, and run the suite (the transcripts `zip ends a debounce` cover the case).

/// swift-async-algorithms' `debounce(for:clock:)`, never cancelled from outside.
struct ShieldedDebounce: AsyncSequence, Sendable {
  typealias Element = Value
  let upstream: ValueSequence
  let interval: Duration
  let clock: PipeClock

  func makeAsyncIterator() -> Iterator {
    let stop = UpstreamStop()
    let debounced = StoppableUpstream(base: upstream, stop: stop).debounce(for: interval, clock: clock)
    let cell = IteratorCell(ValueSequence(debounced).makeAsyncIterator())
    return Iterator(debounced: Asker(cell, kind: .debounceWorkaround), stop: stop)
  }

  struct Iterator: AsyncIteratorProtocol {
    /// The debounce's `next()`, asked from one task of its own for the whole iteration.
    let debounced: Asker
    let stop: UpstreamStop

    mutating func next() async throws -> Value? {
      guard !Task.isCancelled else {
        stop.stop()
        return nil
      }
      let debounced = debounced
      let value = try await withTaskCancellationHandler {
        try await debounced.ask()
      } onCancel: { [stop] in
        stop.stop()
      }
      // A debounce whose upstream was stopped hands over what it held; a cancelled consumer
      // does not want it.
      return Task.isCancelled ? nil : value
    }
  }
}
