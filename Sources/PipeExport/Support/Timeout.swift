import AsyncAlgorithms
import Foundation

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `timeout`: fails, as pipesh says it, when no element came for `interval`.
  fileprivate func timeout(
    after interval: Duration, stage: String
  ) -> AsyncThrowingStream<Element, Error> {
    let (seconds, attoseconds) = interval.components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    var shown = "\(nanoseconds)ns"
    if value == 0 || value >= 0.05 {
      shown = "\((value * 10).rounded() / 10)s"
    } else if nanoseconds >= 1_000_000 {
      shown = "\((nanoseconds + 500_000) / 1_000_000)ms"
    } else if nanoseconds >= 1_000 {
      shown = "\((nanoseconds + 500) / 1_000)µs"
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
