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
