import AsyncAlgorithms
import Foundation

/// pipesh's `timer`: 0, 1, 2, … one per interval, the first after one interval.
func timer(
  every interval: Duration
) -> AsyncExclusiveReductionsSequence<AsyncTimerSequence<ContinuousClock>, Int> {
  AsyncTimerSequence(interval: interval, clock: .continuous)
    .reductions(-1) { count, _ in count + 1 }
}
