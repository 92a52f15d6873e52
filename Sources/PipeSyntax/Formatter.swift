/// `pipesh fmt`: a script in the one layout of the docs, from its tokens. Between two tokens on one
/// line the space is the layout's: one around `|`, binary operators and `&`, one after `,`, `;`
/// and a label's `:`, one inside a closure's braces (`{ $0 * 2 }`), none inside `( )` and `[ ]`
/// or before `,`, `:` and `;`. Where the space before a token is part of what the script says
/// (`f(x)` a call, `f (x)` a group; `$0.0` a member; `-1` a negative number; `?` and `!` after a
/// name) it is kept as written. Everything between tokens that holds a line break or a comment
/// (comments, line continuations, indentation) is kept, without trailing blanks; `validate { … }`
/// blocks, which hold Swift, and string literals are kept as written. So the tokens, and with them
/// what the script does, never change, and formatting a formatted script changes nothing.
public enum Formatter {
  /// A script with a syntax error: it is not formatted.
  public struct Refusal: Error, Sendable {
    public let diagnostics: [Diagnostic]
  }

  /// The script in the layout, or its syntax errors.
  public static func format(_ source: SourceFile, grammar: Grammar) -> Result<String, Refusal> {
    let errors = Parser.parse(source, grammar: grammar).diagnostics.filter { $0.severity == .error }
    guard errors.isEmpty else { return .failure(Refusal(diagnostics: errors)) }
    let tokens = Lexer.tokenize(source).tokens
    let bytes = source.bytes
    func text(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }
    var out = ""
    var end = 0
    var index = 0
    var ternaries = 0
    while index < tokens.count {
      let token = tokens[index]
      let gap = text(end, token.range.start)
      let previous = index > 0 ? tokens[index - 1] : nil
      if previous == nil || previous?.kind == .newline || gap.contains("\n") || gap.contains("#")
        || token.kind == .end || token.kind == .newline
      {
        // A line's indentation is kept; what ends a line loses its trailing blanks.
        out += withoutTrailingBlanks(gap, atTheEnd: token.kind == .end || token.kind == .newline)
      } else if token.isPunctuation(":"), ternaries > 0 {
        // The `:` of `c ? a : b`, not a label's.
        ternaries -= 1
        out += " "
      } else if let previous {
        out += space(between: previous, and: token, before: index > 1 ? tokens[index - 2] : nil)
      }
      // A `?` after a space starts `c ? a : b` (one touching a name is an optional label's).
      if token.isPunctuation("?"), token.spaceBefore { ternaries += 1 }
      if token.kind == .newline { ternaries = 0 }
      // A validate block, whole, as written.
      if token.kind == .identifier, token.text == "validate",
        previous == nil || previous?.kind == .newline || previous?.isPunctuation(";") == true,
        let close = closingBrace(after: index, in: tokens)
      {
        out += text(token.range.start, tokens[close].range.end)
        end = tokens[close].range.end
        index = close + 1
        continue
      }
      out += text(token.range.start, token.range.end)
      end = token.range.end
      index += 1
    }
    while out.hasSuffix("\n") { out.removeLast() }
    return .success(out.isEmpty ? "" : out + "\n")
  }

  private static let binary: Set<String> = ["+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "="]

  /// Whether a token ends an operand (so an operator after it is binary).
  private static func endsOperand(_ token: Token) -> Bool {
    switch token.kind {
    case .identifier, .integer, .float, .duration, .string, .dollar: true
    case .punctuation: [")", "]", "}"].contains(token.text)
    case .newline, .end, .invalid: false
    }
  }

  /// The space between two tokens on one line (`earlier` stands before `previous`).
  private static func space(between previous: Token, and token: Token, before earlier: Token?) -> String {
    let written = token.spaceBefore ? " " : ""
    func isPunctuation(_ token: Token, _ texts: Set<String>) -> Bool {
      token.kind == .punctuation && texts.contains(token.text)
    }
    // Where the parser reads the space: kept as written (a call `f(x)` or a group `f (x)`, a
    // member, a subscript, an optional label's `?`).
    if isPunctuation(token, ["(", "[", ".", "?", "!"]), endsOperand(previous) { return written }
    if isPunctuation(previous, ["."]) { return written }
    // What touches a `-` or `+` is folded into it (`-1`, `-(1)`): kept as written.
    if isPunctuation(previous, ["-", "+"]) { return written }
    if isPunctuation(previous, ["{"]) && isPunctuation(token, ["}"]) { return "" }
    if isPunctuation(token, [",", ";", ")", "]", ":"]) { return "" }
    if isPunctuation(previous, ["(", "["]) { return "" }
    if isPunctuation(previous, ["!"]) { return written }
    if isPunctuation(token, ["|", "&", "{", "}"]) || isPunctuation(previous, ["|", "&", "{", ",", ";", ":"]) {
      return " "
    }
    if isPunctuation(token, binary) { return " " }
    // After an operator: binary when an operand stands before it, else a prefix.
    if isPunctuation(previous, binary) { return earlier.map(endsOperand) == true ? " " : "" }
    return " "
  }

  /// The index of the `}` that closes the first `{` after `index`, on the same statement.
  private static func closingBrace(after index: Int, in tokens: [Token]) -> Int? {
    var depth = 0
    for position in (index + 1)..<tokens.count {
      let token = tokens[position]
      if token.kind == .end || (token.kind == .newline && depth == 0) { return nil }
      if token.isPunctuation("{") { depth += 1 }
      if token.isPunctuation("}") {
        depth -= 1
        if depth == 0 { return position }
      }
    }
    return nil
  }

  /// The text with the blanks before each line break removed (comments stay, and the indentation
  /// of the line after the last break, unless nothing follows).
  private static func withoutTrailingBlanks(_ text: String, atTheEnd: Bool) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.enumerated().map { number, line in
      var line = Substring(line)
      guard number < lines.count - 1 || atTheEnd else { return String(line) }
      while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
      return String(line)
    }
    .joined(separator: "\n")
  }
}
