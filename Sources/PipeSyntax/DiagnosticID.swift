/// What kind of problem a diagnostic reports, as swift-syntax's `MessageID`: each id is declared
/// once, as a static member beside the messages of its phase (these are the lexer's and the
/// parser's; `PipeSema`, `PipeExport` and the trace file reader declare theirs), and code compares
/// ids typed (`$0.id == .channelTypeUnknown`), never a message's text. `rawValue` is its stable
/// spelling (`channel-type-unknown`).
public struct DiagnosticID: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// An id spelled `rawValue`; declare it once, as a static member.
  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  public var description: String { rawValue }
}

extension DiagnosticID {
  // lexical
  public static let unexpectedCharacter = DiagnosticID("unexpected-character")
  public static let invalidDollar = DiagnosticID("invalid-dollar")
  public static let unknownUnit = DiagnosticID("unknown-unit")
  public static let unterminatedString = DiagnosticID("unterminated-string")
  public static let invalidEscape = DiagnosticID("invalid-escape")
  public static let invalidNumber = DiagnosticID("invalid-number")
  public static let notACombinator = DiagnosticID("not-a-combinator")
  public static let durationOutOfRange = DiagnosticID("duration-out-of-range")
  // syntax
  public static let nestingTooDeep = DiagnosticID("nesting-too-deep")
  public static let expected = DiagnosticID("expected")
  public static let unbalancedBracket = DiagnosticID("unbalanced-bracket")
  public static let unexpectedToken = DiagnosticID("unexpected-token")
  /// A closure that cannot stand, in the parser (empty) or the checker (`$1` with one argument).
  public static let badClosure = DiagnosticID("bad-closure")
  public static let badInterpolation = DiagnosticID("bad-interpolation")
}
