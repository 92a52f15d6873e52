import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `fail`: fails at once with the message.
  enum Fail {
    static func run(message: String) -> Run {
      .node(
        build: { input in
          ValueSequence(
            FailSequence(error: PipelineError(stage: input.stage.text, message: message)))
        })
    }
  }
}

/// `fail "MSG"`: fails at the first request.
struct FailSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let error: PipelineError

  func makeAsyncIterator() -> Iterator { Iterator(error: error) }

  struct Iterator: AsyncIteratorProtocol {
    let error: PipelineError
    mutating func next() async throws -> Value? { throw error }
  }
}
