/// Expressions: closure bodies and call arguments, with Swift's precedence.
extension Parser {
  /// `ternary := or ('?' expr ':' expr)?`
  mutating func parseExpression() -> Expr {
    defer { nesting -= 1 }
    guard enterNesting() else { return Expr(.missing, current.range) }
    let condition = parseBinary(level: 0)
    guard consume("?") != nil else { return condition }
    let yes = parseExpression()
    guard consume(":") != nil else {
      diagnostics.append(DiagnosticMessages.expected("':' in the conditional expression", found: current))
      return Expr(.ternary(condition, yes, Expr(.missing, current.range)), condition.range.union(yes.range))
    }
    let no = parseExpression()
    return Expr(.ternary(condition, yes, no), condition.range.union(no.range))
  }

  private static let precedence: [[String]] = [
    ["||"], ["&&"], ["==", "!=", "<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"],
  ]

  mutating func parseBinary(level: Int) -> Expr {
    guard level < Self.precedence.count else { return parseUnary() }
    var left = parseBinary(level: level + 1)
    // Each operator of a chain makes the tree one level deeper.
    var chain = 0
    defer { nesting -= chain }
    while current.kind == .punctuation, Self.precedence[level].contains(current.text), !atClaimWord {
      chain += 1
      guard enterNesting() else { return left }
      let op = advance().text
      let right = parseBinary(level: level + 1)
      left = Expr(.binary(op, left, right), left.range.union(right.range))
    }
    return left
  }

  mutating func parseUnary() -> Expr {
    // The smallest integer has no positive counterpart: read `-9223372036854775808` as one literal.
    if current.isPunctuation("-"), peek(1).kind == .integer, !peek(1).spaceBefore,
      let value = Int("-" + peek(1).text.filter { $0 != "_" })
    {
      let op = advance()
      let literal = advance()
      return Expr(.integer(value), op.range.union(literal.range))
    }
    if current.isPunctuation("-") || current.isPunctuation("!") {
      defer { nesting -= 1 }
      guard enterNesting() else { return Expr(.missing, current.range) }
      let op = advance()
      let operand = parseUnary()
      // Fold negative literals so `-7` and `-0.25` are constants.
      switch (op.text, operand.kind) {
      case ("-", .integer(let value)) where operand.range.start == op.range.end:
        return Expr(.integer(-value), op.range.union(operand.range))
      case ("-", .float(let value)) where operand.range.start == op.range.end:
        return Expr(.float(-value), op.range.union(operand.range))
      case ("-", .duration(let value)) where operand.range.start == op.range.end:
        return Expr(.duration(.zero - value), op.range.union(operand.range))
      default:
        return Expr(.unary(op.text, operand), op.range.union(operand.range))
      }
    }
    return parsePostfix()
  }

  mutating func parsePostfix() -> Expr {
    var expr = parsePrimary()
    // Each member, index, call or subscript makes the tree one level deeper.
    var chain = 0
    defer { nesting -= chain }
    while true {
      chain += 1
      guard enterNesting() else { return expr }
      if current.isPunctuation("."), !current.spaceBefore {
        advance()
        if current.kind == .integer, let index = Int(current.text) {
          let token = advance()
          expr = Expr(.tupleIndex(expr, index), expr.range.union(token.range))
        } else if current.kind == .float {
          // `$0.0.1` lexes `0.1` as one number: split it into two tuple indexes.
          let token = advance()
          let parts = token.text.split(separator: ".").compactMap { Int($0) }
          for part in parts {
            expr = Expr(.tupleIndex(expr, part), expr.range.union(token.range))
          }
        } else if current.kind == .identifier {
          let token = advance()
          expr = Expr(.member(expr, Identifier(token.text, token.range)), expr.range.union(token.range))
        } else {
          diagnostics.append(DiagnosticMessages.expected("a member name after '.'", found: current))
          return expr
        }
      } else if current.isPunctuation("("), !current.spaceBefore {
        let open = advance()
        let arguments = parseCallArguments(open: open)
        expr = Expr(.call(expr, arguments), expr.range.union(SourceRange(open.range.start, previousEnd)))
      } else if current.isPunctuation("["), !current.spaceBefore, closureDepth > 0 {
        let open = advance()
        let index = parseExpression()
        if consume("]") == nil {
          diagnostics.append(DiagnosticMessages.unbalanced("[", at: open.range, found: current))
        }
        expr = Expr(.subscripted(expr, index), expr.range.union(SourceRange(open.range.start, previousEnd)))
      } else {
        return expr
      }
    }
  }

  mutating func parseCallArguments(open: Token) -> [Argument] {
    var arguments: [Argument] = []
    if consume(")") != nil { return arguments }
    repeat {
      let start = current.range.start
      let label = parseLabel()
      let value = parseExpression()
      arguments.append(Argument(label: label, value: value, range: SourceRange(start, previousEnd)))
    } while consume(",") != nil
    if consume(")") == nil {
      diagnostics.append(DiagnosticMessages.unbalanced("(", at: open.range, found: current))
    }
    return arguments
  }

  mutating func parsePrimary() -> Expr {
    let token = current
    switch token.kind {
    case .integer:
      advance()
      guard let value = Int(token.text.filter { $0 != "_" }) else {
        diagnostics.append(DiagnosticMessages.invalidNumber(token.text, token.range))
        return Expr(.missing, token.range)
      }
      return Expr(.integer(value), token.range)
    case .float:
      advance()
      guard let value = Double(token.text.filter { $0 != "_" }) else {
        diagnostics.append(DiagnosticMessages.invalidNumber(token.text, token.range))
        return Expr(.missing, token.range)
      }
      return Expr(.float(value), token.range)
    case .duration:
      advance()
      guard let duration = Self.durationValue(token.text) else {
        diagnostics.append(DiagnosticMessages.durationOutOfRange(token.text, token.range))
        return Expr(.missing, token.range)
      }
      return Expr(.duration(duration), token.range)
    case .string:
      advance()
      return Expr(.string(decodeString(token)), token.range)
    case .dollar:
      advance()
      return Expr(.dollar(Int(token.text.dropFirst()) ?? 0), token.range)
    case .identifier:
      advance()
      switch token.text {
      case "true": return Expr(.bool(true), token.range)
      case "false": return Expr(.bool(false), token.range)
      case "nil": return Expr(.nilLiteral, token.range)
      default: return Expr(.name(token.text), token.range)
      }
    case .punctuation where token.text == "{":
      return parseClosure()
    case .punctuation where token.text == "[":
      let open = advance()
      let elements = parseList(after: open, closing: "]") { $0.parseExpression() }
      return Expr(.array(elements), SourceRange(open.range.start, previousEnd))
    case .punctuation where token.text == "(":
      let open = advance()
      let elements = parseList(after: open, closing: ")") { $0.parseExpression() }
      let range = SourceRange(open.range.start, previousEnd)
      return elements.count == 1 ? Expr(elements[0].kind, range) : Expr(.tuple(elements), range)
    default:
      diagnostics.append(DiagnosticMessages.expected("an expression", found: token))
      if token.kind == .invalid { advance() }
      return Expr(.missing, token.range)
    }
  }

  /// Parses `element (, element)*` up to `closing`, after the opening bracket `open`; a missing
  /// closing bracket is reported at `open`, and parsing resumes after it.
  mutating func parseList<Element>(
    after open: Token, closing: String, _ element: (inout Parser) -> Element
  ) -> [Element] {
    var elements: [Element] = []
    if !current.isPunctuation(closing) {
      repeat {
        if current.isPunctuation(closing) { break }  // a trailing comma
        elements.append(element(&self))
      } while consume(",") != nil
    }
    if consume(closing) == nil {
      diagnostics.append(DiagnosticMessages.unbalanced(open.text, at: open.range, found: current))
      skipStage()
      _ = consume(closing)
    }
    return elements
  }

  mutating func parseClosure() -> Expr {
    let open = advance()
    if let close = consume("}") {
      diagnostics.append(DiagnosticMessages.emptyClosure(open.range.union(close.range)))
      return Expr(.closure(Expr(.missing, close.range), parameters: []), open.range.union(close.range))
    }
    let parameters = parseClosureParameters()
    closureDepth += 1
    let body = parseExpression()
    closureDepth -= 1
    if consume("}") == nil {
      if current.kind != .invalid {
        diagnostics.append(DiagnosticMessages.unbalanced("{", at: open.range, found: current))
      }
      skipClosure()
    }
    return Expr(.closure(body, parameters: parameters), SourceRange(open.range.start, previousEnd))
  }

  /// `x in`, `acc, x in` at the start of a closure: its named parameters, as Swift writes them.
  /// Nothing is consumed unless the names are followed by `in`.
  mutating func parseClosureParameters() -> [Identifier] {
    var ahead = 0
    var names: [Token] = []
    while peek(ahead).kind == .identifier, !["in", "true", "false", "nil"].contains(peek(ahead).text) {
      names.append(peek(ahead))
      ahead += 1
      guard peek(ahead).isPunctuation(",") else { break }
      ahead += 1
    }
    guard !names.isEmpty, peek(ahead).kind == .identifier, peek(ahead).text == "in" else { return [] }
    for _ in 0...ahead { advance() }
    return names.map { Identifier($0.text, $0.range) }
  }

  /// Skips to just past the `}` that closes the closure being parsed, or to the statement's end.
  mutating func skipClosure() {
    var depth = 0
    while current.kind != .end, current.kind != .newline {
      if current.isPunctuation("{") { depth += 1 }
      if current.isPunctuation("}") {
        if depth == 0 {
          advance()
          return
        }
        depth -= 1
      }
      advance()
    }
  }
}

extension Parser {
  /// Reads `range` of `source` as one pipesh expression (a closure, in `validate { … }`), with
  /// every diagnostic; ranges stay the file's.
  public static func parseExpression(
    _ source: SourceFile, range: SourceRange, grammar: Grammar
  ) -> (Expr, [Diagnostic]) {
    let (tokens, lexical) = Lexer.tokenize(source, range: range)
    var parser = Parser(grammar: grammar, source: source, tokens: tokens, diagnostics: lexical)
    let expression = parser.parseExpression()
    if parser.current.kind != .end {
      parser.diagnostics.append(DiagnosticMessages.unexpectedToken(parser.current, after: "after the expression"))
    }
    return (expression, parser.diagnostics)
  }
}
