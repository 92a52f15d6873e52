import PipeSyntax

extension Catalogue {
  /// `range`: emits A through B inclusive, by steps of S (default 1).
  public enum RangeSource: OperatorDefinition {
    public static let from = Parameter.positional("from", .number, "the first value")
    public static let through = Parameter.positional("through", .number, "the last value")
    public static let by = Parameter.labelled("by", .number, "the step; negative counts down")

    public static let signature = OperatorSignature(
      .range, .source, usage: "range A B [by: S]", summary: "emits A through B inclusive, by steps of S (default 1)",
      parameters: [from, through, by],
      example: "range 1 10 by: 3", implementation: "stride(from:through:by:).async"
    ) { typing in
      let types = [from, through, by].compactMap { typing.type(of: $0) }
      if case .value(let step, _) = typing.argument(by), step == .int(0) || step == .double(0) {
        typing.error("the step cannot be 0", at: by)
        return nil
      }
      return types.contains(.double) ? .double : .int
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .range(
        from: try arguments.constant(from), through: try arguments.constant(through),
        by: try arguments.constant(by, default: (.int(1), .int)))
    }
  }
}
