import PipeSyntax

extension Catalogue {
  /// `mapError`: a failure of its input becomes a failure with the closure's message.
  public enum MapError: OperatorDefinition {
    public static let transform = Parameter.positional(
      "transform", .closure, "the new error's message, a String, from $0 (the failure's message)")

    public static let signature = OperatorSignature(
      .mapError, .operator, usage: "mapError { e }",
      summary:
        "a failure of its input becomes a failure with the closure's message ($0: the failure's message); elements pass",
      parameters: [transform],
      example: "from 1 0 2 | map { 10 / $0 } | mapError { \"lookup: \" + $0 }",
      implementation: "mapError(_:) (AsyncAlgorithms 1.1.4; macOS 15, iOS 18)"
    ) { typing in
      guard let closure = typing.closure(transform, [.string]) else { return nil }
      guard closure.type == .string else {
        typing.error(
          "the closure gives the new error's message, a String, not '\(closure.type)' (write \"\\($0)\" or str(…))",
          at: transform)
        return nil
      }
      return typing.input
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .mapError(transform: try arguments.closure(transform))
    }
  }
}
