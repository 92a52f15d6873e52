import PipeSyntax

extension Catalogue {
  /// `compacted`: drops nil elements and unwraps the rest.
  public enum Compacted: OperatorDefinition {

    public static let signature = OperatorSignature(
      .compacted, .operator, usage: "compacted", summary: "drops nil elements and unwraps the rest",
      example: "from 1 nil 3 | compacted", implementation: "compacted()"
    ) { typing in
      guard typing.input.isOptional else {
        typing.error("its input must be optional, but it is '\(typing.input)'")
        return nil
      }
      return typing.input.unwrapped
    }

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .compacted
    }
  }
}
