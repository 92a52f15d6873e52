/// Literals: durations, strings with escapes and interpolations.
extension Parser {
  /// The duration a literal such as `1.5s` or `2e3ms` stands for; nil when it is out of range.
  static func durationValue(_ text: String) -> Duration? {
    let unitStart = text.firstIndex { $0.isLetter && $0 != "e" && $0 != "E" } ?? text.endIndex
    // The lexer made the token: a number, then a known unit.
    guard let number = Double(String(text[..<unitStart].filter { $0 != "_" })),
      let scale = Duration.unitScale(String(text[unitStart...]))
    else { return nil }
    return Duration.fromNanoseconds(number * scale)
  }

  mutating func decodeString(_ token: Token) -> [StringPart] {
    let bytes = Array(token.text.utf8)
    let base = token.range.start + 1
    var parts: [StringPart] = []
    var text: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
        text.append(byte)
        index += 1
        continue
      }
      let escape = bytes[index + 1]
      switch escape {
      case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
      case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
      case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
      case UInt8(ascii: "0"): text.append(0)
      case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): text.append(escape)
      case UInt8(ascii: "("):
        var depth = 1
        var end = index + 2
        while end < bytes.count, depth > 0 {
          if bytes[end] == UInt8(ascii: "(") { depth += 1 }
          if bytes[end] == UInt8(ascii: ")") { depth -= 1 }
          end += 1
        }
        let innerRange = SourceRange(base + index + 2, base + end - 1)
        if closureDepth == 0, pipelineClosureDepth == 0 {
          diagnostics.append(DiagnosticMessages.interpolationOutsideClosure(SourceRange(base + index, base + end)))
        } else {
          if !text.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))) }
          text.removeAll()
          parts.append(.interpolation(parseInterpolation(innerRange)))
          if tooDeep { return parts }
        }
        index = end
        continue
      default:
        diagnostics.append(
          DiagnosticMessages.invalidEscape(
            "\\" + String(decoding: [escape], as: UTF8.self), SourceRange(base + index, base + index + 2)))
      }
      index += 2
    }
    if !text.isEmpty || parts.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))) }
    return parts
  }

  mutating func parseInterpolation(_ range: SourceRange) -> Expr {
    let (tokens, lexical) = Lexer.tokenize(source, range: range)
    var inner = Parser(grammar: grammar, source: source, tokens: tokens, diagnostics: lexical)
    inner.closureDepth = closureDepth
    // An interpolation nests in the string around it: it goes on counting from this level, so
    // `"\("\(…)")"` thousands deep is the one nesting error, not a stack overflow.
    inner.nesting = nesting
    let expr = inner.parseExpression()
    if inner.tooDeep {
      // Only the nesting error: what the inner parser said while unwinding is noise.
      diagnostics.append(contentsOf: inner.diagnostics.filter { $0.id == .nestingTooDeep }.prefix(1))
      tooDeep = true
      skipStatement()
      return Expr(.missing, range)
    }
    if inner.current.kind != .end {
      inner.diagnostics.append(DiagnosticMessages.unexpectedToken(inner.current, after: "in interpolation"))
    }
    diagnostics.append(contentsOf: inner.diagnostics)
    return expr
  }
}
