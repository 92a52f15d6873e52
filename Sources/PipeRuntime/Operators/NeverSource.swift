import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `never`: emits nothing and never finishes (until cancelled).
  enum NeverSource {
    static func run() -> Run {
      .node(
        build: { _ in ValueSequence(NeverSequence()) })
    }
  }
}

/// `never`: no element, until the consuming task is cancelled; then it finishes.
struct NeverSequence: AsyncSequence, Sendable {
  typealias Element = Value

  func makeAsyncIterator() -> Iterator { Iterator() }

  struct Iterator: AsyncIteratorProtocol {
    mutating func next() async -> Value? {
      // Parks on a continuation that only cancellation resumes.
      let box = ContinuationBox()
      await withTaskCancellationHandler {
        await withUnsafeContinuation { continuation in box.store(continuation) }
      } onCancel: {
        box.resume()
      }
      return nil
    }
  }
}
