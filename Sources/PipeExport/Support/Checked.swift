import AsyncAlgorithms
import Foundation

/// What pipesh reports where Swift's own arithmetic would stop the program.
struct ArithmeticError: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

/// A closure whose arithmetic is checked, with the stage its errors are reported against.
func checked<Input, Output>(
  _ stage: String, _ body: @escaping @Sendable (Input) throws -> Output
) -> @Sendable (Input) async throws -> Output {
  { input in
    do {
      return try body(input)
    } catch let error as ArithmeticError {
      throw StageError(stage: stage, message: error.message)
    }
  }
}

/// A two-argument closure (`reduce`, `reductions`) whose arithmetic is checked.
func checked<Result, Input>(
  _ stage: String, _ body: @escaping @Sendable (Result, Input) throws -> Result
) -> @Sendable (Result, Input) async throws -> Result {
  { result, input in
    do {
      return try body(result, input)
    } catch let error as ArithmeticError {
      throw StageError(stage: stage, message: error.message)
    }
  }
}
