/// Parses statements, pipelines and closures. It never throws and never stops at the first error:
/// it records a diagnostic, inserts a missing node, skips to a place it can resume from, and goes on,
/// so a script shows all its errors at once.
public struct Parser {
  private let grammar: Grammar
  private let source: SourceFile
  private var tokens: [Token]
  private var position = 0
  private var diagnostics: [Diagnostic] = []
  private var closureDepth = 0
  /// How deep the statement being parsed nests: brackets, closures, stages in groups, unary and
  /// binary operators. Past `maximumNesting` the statement is reported once and skipped, so no
  /// input can exhaust the stack of the parser or of the checker and evaluator after it.
  private var nesting = 0
  private var tooDeep = false
  public static let maximumNesting = 100

  init(grammar: Grammar, source: SourceFile, tokens: [Token], diagnostics: [Diagnostic]) {
    self.grammar = grammar
    self.source = source
    self.tokens = tokens
    self.diagnostics = diagnostics
  }

  /// Parses a whole script or line.
  public static func parse(_ source: SourceFile, grammar: Grammar) -> Script {
    let (tokens, lexical) = Lexer.tokenize(source)
    var parser = Parser(grammar: grammar, source: source, tokens: tokens, diagnostics: lexical)
    var statements: [Statement] = []
    while true {
      parser.skipSeparators()
      if parser.current.kind == .end { break }
      let before = parser.position
      let reported = parser.diagnostics.count
      let statement = parser.parseStatement()
      if parser.tooDeep {
        // What the unwinding reported after the one diagnostic is noise.
        parser.diagnostics.removeSubrange((reported + 1)...)
        parser.tooDeep = false
        parser.nesting = 0
      } else if let statement {
        statements.append(statement)
      }
      if !parser.atStatementEnd {
        parser.diagnostics.append(DiagnosticMessages.unexpectedToken(parser.current, after: "at end of statement"))
        parser.skipStatement()
      }
      if parser.position == before { parser.advance() }
    }
    let sorted = parser.diagnostics.sorted { $0.range.start < $1.range.start }
    return Script(source: source, statements: statements, diagnostics: sorted)
  }

  // MARK: tokens

  private var current: Token { tokens[position] }

  private func peek(_ ahead: Int) -> Token {
    tokens[min(position + ahead, tokens.count - 1)]
  }

  @discardableResult
  private mutating func advance() -> Token {
    let token = tokens[position]
    if position < tokens.count - 1 { position += 1 }
    return token
  }

  private mutating func consume(_ punctuation: String) -> Token? {
    current.isPunctuation(punctuation) ? advance() : nil
  }

  private var atStatementEnd: Bool {
    current.kind == .end || current.kind == .newline || current.isPunctuation(";")
  }

  private mutating func skipSeparators() {
    while current.kind == .newline || current.isPunctuation(";") { advance() }
  }

  /// Skips to the end of the statement, past balanced brackets.
  private mutating func skipStatement() {
    while !atStatementEnd { advance() }
  }

  /// Skips to a token a stage list can resume at: `|`, `,`, a closing bracket or the statement's end.
  private mutating func skipStage() {
    var depth = 0
    while current.kind != .end {
      if depth == 0, atStatementEnd || current.isPunctuation("|") || current.isPunctuation(",") { return }
      if current.isPunctuation("(") || current.isPunctuation("[") || current.isPunctuation("{") { depth += 1 }
      if current.isPunctuation(")") || current.isPunctuation("]") || current.isPunctuation("}") {
        if depth == 0 { return }
        depth -= 1
      }
      advance()
    }
  }

  private var previousEnd: Int {
    position > 0 ? tokens[position - 1].range.end : 0
  }

  /// Enters one more level of nesting; past the limit, reports it once and skips the statement.
  /// The caller leaves the level with `nesting -= 1` whatever the answer.
  private mutating func enterNesting() -> Bool {
    nesting += 1
    guard nesting > Self.maximumNesting else { return !tooDeep }
    if !tooDeep {
      tooDeep = true
      diagnostics.append(DiagnosticMessages.nestingTooDeep(Self.maximumNesting, current.range))
    }
    skipStatement()
    return false
  }

  // MARK: statements

  private mutating func parseStatement() -> Statement? {
    let start = current.range.start
    if current.kind == .identifier, current.text == "let" {
      advance()
      guard current.kind == .identifier else {
        diagnostics.append(DiagnosticMessages.expected("a name after 'let'", found: current))
        skipStatement()
        return nil
      }
      let name = Identifier(current.text, current.range)
      advance()
      guard consume("=") != nil else {
        diagnostics.append(DiagnosticMessages.expected("'=' after 'let \(name.name)'", found: current))
        skipStatement()
        return nil
      }
      let pipeline = parsePipeline()
      return Statement(.binding(name, pipeline), SourceRange(start, previousEnd))
    }
    if current.kind == .identifier, grammar.commands.contains(current.text), !peek(1).isPunctuation("|") {
      let name = Identifier(current.text, current.range)
      advance()
      if grammar.pipelineCommands.contains(name.name) {
        let pipeline = parsePipeline()
        return Statement(.command(name, [], pipeline), SourceRange(start, previousEnd))
      }
      let arguments = parseArguments()
      return Statement(.command(name, arguments, nil), SourceRange(start, previousEnd))
    }
    let pipeline = parsePipeline()
    let background = consume("&") != nil
    return Statement(.run(pipeline, background: background), SourceRange(start, previousEnd))
  }

  // MARK: pipelines

  private mutating func parsePipeline() -> Pipeline {
    let start = current.range.start
    var stages = [parseStage(isSource: true)]
    while consume("|") != nil {
      stages.append(parseStage(isSource: false))
    }
    return Pipeline(stages: stages, range: SourceRange(start, max(start, previousEnd)))
  }

  private mutating func parseStage(isSource: Bool) -> Stage {
    let start = current.range.start
    defer { nesting -= 1 }
    guard enterNesting() else { return Stage(.missing, SourceRange(start, start)) }
    if isSource, let open = consume("(") {
      let inner = parsePipeline()
      if consume(")") == nil {
        diagnostics.append(DiagnosticMessages.unbalanced("(", at: open.range, found: current))
        skipStage()
        _ = consume(")")
      }
      return Stage(.group(inner), SourceRange(start, previousEnd))
    }
    guard current.kind == .identifier else {
      let what = isSource ? "a source (such as 'timer 1' or 'from 1 2 3')" : "an operator after '|'"
      if current.isPunctuation(")") || current.isPunctuation("]") || current.isPunctuation("}"),
        !isInsideCombinator
      {
        diagnostics.append(DiagnosticMessages.unexpectedClosing(current))
        advance()
      } else {
        diagnostics.append(DiagnosticMessages.expected(what, found: current))
      }
      skipStage()
      return Stage(.missing, SourceRange(start, max(start, current.range.start)))
    }
    let name = Identifier(current.text, current.range)
    advance()
    if current.isPunctuation("("), !current.spaceBefore, !grammar.combinators.contains(name.name) {
      // `timer(1)`, `range(1, 5)`: read the arguments as expressions and say how to write them.
      let open = advance()
      let arguments = parseCallArguments(open: open)
      let written = ([name.name] + arguments.map { source.text(of: $0.range) }).joined(separator: " ")
      diagnostics.append(
        DiagnosticMessages.notACombinator(
          name.name, written: written, SourceRange(start, previousEnd), combinators: grammar.combinatorList))
      return Stage(.call(name, arguments), SourceRange(start, previousEnd))
    }
    if current.isPunctuation("("), !current.spaceBefore {
      let open = advance()
      combinatorDepth += 1
      defer { combinatorDepth -= 1 }
      let inputs = parseList(after: open, closing: ")") { $0.parsePipeline() }
      return Stage(.combinator(name, inputs), SourceRange(start, previousEnd))
    }
    let arguments = parseArguments()
    return Stage(.call(name, arguments), SourceRange(start, max(name.range.end, previousEnd)))
  }

  private var combinatorDepth = 0
  private var isInsideCombinator: Bool { combinatorDepth > 0 }

  private var atArgumentsEnd: Bool {
    atStatementEnd || current.isPunctuation("|") || current.isPunctuation("&") || current.isPunctuation(")")
      || current.isPunctuation(",") || current.isPunctuation("]") || current.isPunctuation("}")
  }

  private mutating func parseArguments() -> [Argument] {
    var arguments: [Argument] = []
    while !atArgumentsEnd {
      let start = current.range.start
      var label: Identifier?
      if current.kind == .identifier, peek(1).isPunctuation(":") {
        label = Identifier(current.text, current.range)
        advance()
        advance()
      }
      if current.kind == .invalid {
        // The lexer has reported it; a placeholder keeps the checker from also saying it is missing.
        let token = advance()
        arguments.append(Argument(label: label, value: Expr(.missing, token.range), range: token.range))
        continue
      }
      guard canStartArgument else {
        diagnostics.append(DiagnosticMessages.unexpectedToken(current, after: "in arguments"))
        advance()
        continue
      }
      let value = parseUnary()
      arguments.append(Argument(label: label, value: value, range: SourceRange(start, previousEnd)))
    }
    return arguments
  }

  private var canStartArgument: Bool {
    switch current.kind {
    case .identifier, .integer, .float, .duration, .string, .dollar: true
    case .punctuation: ["{", "[", "(", "-", "!"].contains(current.text)
    case .newline, .end, .invalid: false
    }
  }

  // MARK: expressions

  /// `ternary := or ('?' expr ':' expr)?`
  private mutating func parseExpression() -> Expr {
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

  private mutating func parseBinary(level: Int) -> Expr {
    guard level < Self.precedence.count else { return parseUnary() }
    var left = parseBinary(level: level + 1)
    // Each operator of a chain makes the tree one level deeper.
    var chain = 0
    defer { nesting -= chain }
    while current.kind == .punctuation, Self.precedence[level].contains(current.text) {
      chain += 1
      guard enterNesting() else { return left }
      let op = advance().text
      let right = parseBinary(level: level + 1)
      left = Expr(.binary(op, left, right), left.range.union(right.range))
    }
    return left
  }

  private mutating func parseUnary() -> Expr {
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

  private mutating func parsePostfix() -> Expr {
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

  private mutating func parseCallArguments(open: Token) -> [Argument] {
    var arguments: [Argument] = []
    if consume(")") != nil { return arguments }
    repeat {
      let start = current.range.start
      var label: Identifier?
      if current.kind == .identifier, peek(1).isPunctuation(":") {
        label = Identifier(current.text, current.range)
        advance()
        advance()
      }
      let value = parseExpression()
      arguments.append(Argument(label: label, value: value, range: SourceRange(start, previousEnd)))
    } while consume(",") != nil
    if consume(")") == nil {
      diagnostics.append(DiagnosticMessages.unbalanced("(", at: open.range, found: current))
    }
    return arguments
  }

  private mutating func parsePrimary() -> Expr {
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
  private mutating func parseList<Element>(
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

  private mutating func parseClosure() -> Expr {
    let open = advance()
    if let close = consume("}") {
      diagnostics.append(DiagnosticMessages.emptyClosure(open.range.union(close.range)))
      return Expr(.closure(Expr(.missing, close.range)), open.range.union(close.range))
    }
    closureDepth += 1
    let body = parseExpression()
    closureDepth -= 1
    if consume("}") == nil {
      if current.kind != .invalid {
        diagnostics.append(DiagnosticMessages.unbalanced("{", at: open.range, found: current))
      }
      skipClosure()
    }
    return Expr(.closure(body), SourceRange(open.range.start, previousEnd))
  }

  /// Skips to just past the `}` that closes the closure being parsed, or to the statement's end.
  private mutating func skipClosure() {
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

  // MARK: literals

  /// The duration a literal such as `1.5s` or `2e3ms` stands for; nil when it is out of range.
  static func durationValue(_ text: String) -> Duration? {
    let unitStart = text.firstIndex { $0.isLetter && $0 != "e" && $0 != "E" } ?? text.endIndex
    // The lexer made the token: a number, then a known unit.
    guard let number = Double(String(text[..<unitStart].filter { $0 != "_" })),
      let scale = Duration.unitScale(String(text[unitStart...]))
    else { return nil }
    return Duration.fromNanoseconds(number * scale)
  }

  private mutating func decodeString(_ token: Token) -> [StringPart] {
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
        if closureDepth == 0 {
          diagnostics.append(DiagnosticMessages.interpolationOutsideClosure(SourceRange(base + index, base + end)))
        } else {
          if !text.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))) }
          text.removeAll()
          parts.append(.interpolation(parseInterpolation(innerRange)))
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

  private mutating func parseInterpolation(_ range: SourceRange) -> Expr {
    let (tokens, lexical) = Lexer.tokenize(source, range: range)
    var inner = Parser(grammar: grammar, source: source, tokens: tokens, diagnostics: lexical)
    inner.closureDepth = closureDepth
    let expr = inner.parseExpression()
    if inner.current.kind != .end {
      inner.diagnostics.append(DiagnosticMessages.unexpectedToken(inner.current, after: "in interpolation"))
    }
    diagnostics.append(contentsOf: inner.diagnostics)
    return expr
  }
}
