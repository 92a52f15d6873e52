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
