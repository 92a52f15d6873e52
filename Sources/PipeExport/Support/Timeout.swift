import AsyncAlgorithms
import Foundation

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `timeout`: fails, as pipesh says it, when no element came for `interval`.
  fileprivate func timeout(
    after interval: Duration, stage: String
  ) -> AsyncThrowingStream<Element, Error> {
    // The interval exactly, as it was given (pipesh's Duration.exactText): 0.05s, 1.25s, 500µs.
    let (seconds, attoseconds) = interval.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    var shown = nanoseconds % 1_000 == 0 ? "\(nanoseconds / 1_000)µs" : "\(nanoseconds)ns"
    if nanoseconds >= 1_000_000 || nanoseconds <= 0 {
      let fraction = String(nanoseconds.magnitude % 1_000_000_000)
      var digits = String(repeating: "0", count: 9 - fraction.count) + fraction
      while digits.count > 1, digits.hasSuffix("0") { digits.removeLast() }
      shown = "\(nanoseconds / 1_000_000_000).\(digits)s"
    }
    let message = "no element came for \(shown)"
    return AsyncThrowingStream { continuation in
      let expiring: @Sendable () -> Task<Void, Never> = {
        Task {
          guard (try? await Task.sleep(for: interval)) != nil else { return }
          continuation.finish(throwing: StageError(stage: stage, message: message))
        }
      }
      let pump = Task {
        var watchdog = expiring()
        do {
          for try await element in self {
            watchdog.cancel()
            continuation.yield(element)
            watchdog = expiring()
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
        watchdog.cancel()
      }
      continuation.onTermination = { _ in pump.cancel() }
    }
  }
}
