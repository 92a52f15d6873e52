import AsyncAlgorithms
import Foundation

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `delay`: each element passed on `interval` after it arrived.
  fileprivate func delayed(
    by interval: Duration
  ) -> some AsyncSequence<Element, Failure> & Sendable {
    map { (ContinuousClock.now + interval, $0) }
      .buffer(policy: .unbounded)
      .map { due, element in
        try? await Task.sleep(until: due)
        return element
      }
  }
}
