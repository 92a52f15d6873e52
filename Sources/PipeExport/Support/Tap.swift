import AsyncAlgorithms
import Foundation

/// pipesh's `tap`: says `value` for each element and how the input ended, and passes all on.
struct Tap<Base: AsyncSequence>: AsyncSequence {
  let base: Base
  let say: @Sendable (String) -> Void

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), say: say) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let say: @Sendable (String) -> Void

    mutating func next() async throws -> Base.Element? {
      do {
        guard let element = try await base.next() else {
          say(Task.isCancelled ? "cancelled" : "finished")
          return nil
        }
        say(String(describing: element))
        return element
      } catch {
        say("failed: \(error)")
        throw error
      }
    }
  }
}

extension Tap: Sendable where Base: Sendable {}

extension AsyncSequence {
  /// pipesh's `tap "LABEL"`: prints `LABEL: value`, `LABEL: finished`… with `prefix` and, given
  /// an origin, the time since it.
  fileprivate func tap(
    _ label: String, prefix: String = "", since origin: ContinuousClock.Instant? = nil
  ) -> Tap<Self> {
    Tap(base: self) { text in
      print(prefix + (origin.map { timestamp(since: $0) + " " } ?? "") + "\(label): \(text)")
    }
  }
}
