import AsyncAlgorithms
import Foundation

/// pipesh's `tap`: says `value` for each element and how the input ended (`cancelled` also when
/// its consumer stopped asking before the end), and passes all on.
struct Tap<Base: AsyncSequence>: AsyncSequence {
  let base: Base
  let say: @Sendable (String) -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), reporter: Reporter(say: say))
  }

  /// Says how the input ended, once; `cancelled` when the iterator goes away before that.
  final class Reporter {
    let say: @Sendable (String) -> Void
    private var ended = false

    init(say: @escaping @Sendable (String) -> Void) { self.say = say }

    func end(_ text: String) {
      guard !ended else { return }
      ended = true
      say(text)
    }

    deinit { end("cancelled") }
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let reporter: Reporter

    mutating func next() async throws -> Base.Element? {
      do {
        guard let element = try await base.next() else {
          reporter.end(Task.isCancelled ? "cancelled" : "finished")
          return nil
        }
        reporter.say(String(describing: element))
        return element
      } catch is CancellationError {
        reporter.end("cancelled")
        throw CancellationError()
      } catch {
        reporter.end("failed: \(error)")
        throw error
      }
    }
  }
}

extension Tap: Sendable where Base: Sendable {}

/// What a tap says of a stage's error: `map { 10 / $0 }: division by zero`, as pipesh says it.
extension StageError: CustomStringConvertible {
  var description: String { "\(stage): \(message)" }
}

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
