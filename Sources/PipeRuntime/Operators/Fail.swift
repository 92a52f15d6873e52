import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `fail`: fails at once with the message.
  enum Fail {
    static let entry = Operator(
      OperatorSignature(
        "fail", .source, usage: "fail \"MSG\"", summary: "fails at once with the message",
        parameters: [.positional("message", .string, "the error message")], example: "fail \"boom\"",
        implementation: "own (FailSequence)"
      ) { typing in
        .never
      },
      build: { input in
        ValueSequence(
          FailSequence(error: PipelineError(stage: input.stage.text, message: try input.string("message"))))
      })
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
