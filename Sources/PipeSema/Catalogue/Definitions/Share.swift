import PipeSyntax

extension Catalogue {
  /// `share`: lets several consumers iterate one upstream; in a let fragment, every use sees the same elements.
  public enum Share: OperatorDefinition {

    public static let signature = OperatorSignature(
      .share, .operator, usage: "share",
      summary: "lets several consumers iterate one upstream; in a let fragment, every use sees the same elements",
      example:
        "let ticks = timer 1 | take 3 | share\nticks | print label: \"A\" &\nticks | print label: \"B\" &\nwait",
      implementation: "share(bufferingPolicy: .unbounded) (macOS 15, iOS 18)",
      sharesUpstream: true, typing: Typing.same)

    public static func operation<Form: ArgumentForm>(
      _ arguments: ArgumentReader<Form>
    ) throws(MissingArgument) -> Operation<Form> {
      .share
    }
  }
}
