/// What a token is.
public enum TokenKind: Sendable, Hashable {
  /// `[A-Za-z_][A-Za-z0-9_]*`
  case identifier
  /// `42`, `1_000`
  case integer
  /// `1.5`, `1e3`
  case float
  /// `250ms`, `1.5s`
  case duration
  /// `"..."`; the token's text is the raw content between the quotes.
  case string
  /// `$0`, `$1`
  case dollar
  /// Punctuation and operators: `| & ; ( ) { } [ ] , : . + - * / % < > <= >= == != && || ! ? =`
  case punctuation
  /// A statement-ending newline (newlines inside brackets or after `|` are not tokens).
  case newline
  /// The end of the input.
  case end
  /// A character that starts no token; the lexer has reported it.
  case invalid
}

/// One token and where it is.
public struct Token: Sendable, Hashable {
  public let kind: TokenKind
  public let text: String
  public let range: SourceRange
  /// Whether white space stands right before the token.
  public let spaceBefore: Bool

  public func isPunctuation(_ text: String) -> Bool {
    kind == .punctuation && self.text == text
  }
}
