/// Splits source text into tokens. It never throws: a malformed token becomes a diagnostic and an
/// `invalid` token, and lexing goes on.
public struct Lexer {
  private let bytes: [UInt8]
  private var index: Int
  private let limit: Int
  private var depth = 0
  public private(set) var diagnostics: [Diagnostic] = []

  public init(_ source: SourceFile) {
    self.init(source, range: SourceRange(0, source.bytes.count))
  }

  /// A lexer over part of a source (an interpolation inside a string); offsets stay the file's.
  public init(_ source: SourceFile, range: SourceRange) {
    self.bytes = source.bytes
    self.index = range.start
    self.limit = min(range.end, source.bytes.count)
  }

  /// All tokens of the source, ending with `.end`.
  public static func tokenize(
    _ source: SourceFile, range: SourceRange? = nil
  ) -> (tokens: [Token], diagnostics: [Diagnostic]) {
    var lexer = Lexer(source, range: range ?? SourceRange(0, source.bytes.count))
    var tokens: [Token] = []
    while true {
      let token = lexer.next(previous: tokens.last)
      tokens.append(token)
      if token.kind == .end { break }
    }
    return (tokens, lexer.diagnostics)
  }

  /// Whether `text` is an unfinished statement: it ends with `|` or leaves a bracket open.
  /// The shell then asks for a continuation line.
  public static func needsContinuation(_ text: String) -> Bool {
    var lexer = Lexer(SourceFile(name: nil, text: text))
    var last: Token?
    while true {
      let token = lexer.next(previous: last)
      if token.kind == .end { break }
      if token.kind != .newline { last = token }
    }
    if lexer.depth > 0 { return true }
    return last?.isPunctuation("|") ?? false
  }

  private func peek(_ ahead: Int = 0) -> UInt8? {
    index + ahead < limit ? bytes[index + ahead] : nil
  }

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

  private mutating func skipTrivia(previous: Token?) -> (space: Bool, newline: Token?) {
    var space = false
    while let byte = peek() {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        index += 1
        space = true
      case UInt8(ascii: "#"):
        while let byte = peek(), byte != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "\\") where peek(1) == UInt8(ascii: "\n"):
        index += 2
        space = true
      case UInt8(ascii: "\n"):
        let start = index
        index += 1
        space = true
        let continues =
          depth > 0 || previous == nil || previous?.kind == .newline || previous?.isPunctuation("|") == true
        if !continues {
          return (space, Token(kind: .newline, text: "\n", range: SourceRange(start, index), spaceBefore: true))
        }
      default:
        return (space, nil)
      }
    }
    return (space, nil)
  }

  /// The next token; `previous` decides whether a newline ends a statement.
  public mutating func next(previous: Token?) -> Token {
    let (space, newline) = skipTrivia(previous: previous)
    if let newline { return newline }
    let start = index
    guard let byte = peek() else {
      return Token(kind: .end, text: "", range: SourceRange(start, start), spaceBefore: space)
    }
    func make(_ kind: TokenKind) -> Token {
      Token(
        kind: kind, text: String(decoding: bytes[start..<index], as: UTF8.self), range: SourceRange(start, index),
        spaceBefore: space)
    }
    if Self.isIdentifierStart(byte) {
      while let byte = peek(), Self.isIdentifierPart(byte) { index += 1 }
      return make(.identifier)
    }
    if Self.isDigit(byte) {
      return lexNumber(start: start, space: space)
    }
    // `.5` where a number may stand (not a member or tuple index such as `$0.1`).
    if byte == UInt8(ascii: "."), let after = peek(1), Self.isDigit(after), space || previous == nil {
      index += 1
      while let digit = peek(), Self.isDigit(digit) { index += 1 }
      let token = make(.invalid)
      diagnostics.append(DiagnosticMessages.leadingDot(token.text, token.range))
      return token
    }
    switch byte {
    case UInt8(ascii: "\""):
      return lexString(start: start, space: space)
    case UInt8(ascii: "$"):
      index += 1
      guard let digit = peek(), Self.isDigit(digit) else {
        diagnostics.append(DiagnosticMessages.invalidDollar(SourceRange(start, index)))
        return make(.invalid)
      }
      while let digit = peek(), Self.isDigit(digit) { index += 1 }
      return make(.dollar)
    case UInt8(ascii: "@") where peek(1).map(Self.isIdentifierStart) == true:
      // A Swift attribute (`@MainActor`), one token, so that what follows is not read as a word.
      index += 1
      while let byte = peek(), Self.isIdentifierPart(byte) { index += 1 }
      let token = make(.invalid)
      diagnostics.append(DiagnosticMessages.attribute(token.text, token.range))
      return token
    case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
      index += 1
      depth += 1
      return make(.punctuation)
    case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
      index += 1
      depth = max(0, depth - 1)
      return make(.punctuation)
    default:
      break
    }
    let two = peek(1).map { String(decoding: [byte, $0], as: UTF8.self) } ?? ""
    if ["<=", ">=", "==", "!=", "&&", "||"].contains(two) {
      index += 2
      return make(.punctuation)
    }
    if "|&;,:.+-*/%<>!?=".utf8.contains(byte) {
      index += 1
      return make(.punctuation)
    }
    // One whole UTF-8 scalar, so the caret sits under it.
    index += 1
    while let next = peek(), next & 0xC0 == 0x80 { index += 1 }
    let token = make(.invalid)
    diagnostics.append(DiagnosticMessages.unexpectedCharacter(token.text, token.range))
    return token
  }

  private mutating func lexNumber(start: Int, space: Bool) -> Token {
    var isFloat = false
    while let byte = peek(), Self.isDigit(byte) || byte == UInt8(ascii: "_") { index += 1 }
    if peek() == UInt8(ascii: "."), let after = peek(1), Self.isDigit(after) {
      isFloat = true
      index += 1
      while let byte = peek(), Self.isDigit(byte) || byte == UInt8(ascii: "_") { index += 1 }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      let save = index
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      if let digit = peek(), Self.isDigit(digit) {
        isFloat = true
        while let byte = peek(), Self.isDigit(byte) { index += 1 }
      } else {
        index = save
      }
    }
    let numberEnd = index
    // A unit right after the number makes a duration: 250ms, 1.5s, 2m, 10us.
    if let byte = peek(), Self.isIdentifierStart(byte) {
      var end = index
      while end < limit, Self.isIdentifierPart(bytes[end]) { end += 1 }
      let unit = String(decoding: bytes[index..<end], as: UTF8.self)
      index = end
      let text = String(decoding: bytes[start..<end], as: UTF8.self)
      let range = SourceRange(start, end)
      if Duration.unitScale(unit) == nil {
        diagnostics.append(DiagnosticMessages.unknownUnit(unit, in: text, SourceRange(numberEnd, end)))
        return Token(kind: .invalid, text: text, range: range, spaceBefore: space)
      }
      return Token(kind: .duration, text: text, range: range, spaceBefore: space)
    }
    return Token(
      kind: isFloat ? .float : .integer, text: String(decoding: bytes[start..<index], as: UTF8.self),
      range: SourceRange(start, index), spaceBefore: space)
  }

  private mutating func lexString(start: Int, space: Bool) -> Token {
    index += 1
    var parenDepth = 0
    while let byte = peek() {
      if byte == UInt8(ascii: "\\") {
        if peek(1) == UInt8(ascii: "(") { parenDepth += 1 }
        // A backslash at the very end escapes nothing: stop at the end.
        index = min(index + 2, limit)
        continue
      }
      if parenDepth > 0 {
        if byte == UInt8(ascii: "(") { parenDepth += 1 }
        if byte == UInt8(ascii: ")") { parenDepth -= 1 }
        if byte == UInt8(ascii: "\n") { break }
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\"") {
        index += 1
        let text = String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
        return Token(kind: .string, text: text, range: SourceRange(start, index), spaceBefore: space)
      }
      if byte == UInt8(ascii: "\n") { break }
      index += 1
    }
    diagnostics.append(DiagnosticMessages.unterminatedString(SourceRange(start, index)))
    let text = String(decoding: bytes[min(start + 1, index)..<index], as: UTF8.self)
    return Token(kind: .string, text: text, range: SourceRange(start, index), spaceBefore: space)
  }
}

extension Duration {
  /// Nanoseconds in one unit of a duration literal, or nil for an unknown unit.
  public static func unitScale(_ unit: String) -> Double? {
    switch unit {
    case "ns": 1
    case "us": 1e3
    case "ms": 1e6
    case "s": 1e9
    case "m": 60e9
    case "h": 3600e9
    default: nil
    }
  }

  /// The longest duration pipesh takes: 1,000,000,000 seconds (about 31.7 years). Longer ones
  /// would overflow the clocks' arithmetic; they are reported before anything runs.
  public static let maximumSeconds: Double = 1e9

  /// A duration of `seconds`, rounded to the nanosecond; nil when it is not a number or its
  /// size is over `maximumSeconds`.
  public static func fromSeconds(_ seconds: Double) -> Duration? {
    fromNanoseconds(seconds * 1e9)
  }

  /// A duration of `nanoseconds`, rounded; nil when out of range (see `maximumSeconds`).
  public static func fromNanoseconds(_ nanoseconds: Double) -> Duration? {
    guard nanoseconds.isFinite, abs(nanoseconds) <= maximumSeconds * 1e9 else { return nil }
    return .nanoseconds(Int64(nanoseconds.rounded()))
  }

  /// The duration in seconds.
  public var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
