import AsyncAlgorithms
import Foundation

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `work`: waits `interval` for each element, then passes it on, and only then asks
  /// for the next.
  fileprivate func working(
    for interval: Duration
  ) -> some AsyncSequence<Element, Failure> & Sendable {
    map { element in
      try? await Task.sleep(for: interval)
      return element
    }
  }
}
