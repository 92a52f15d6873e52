/// The body of `validate { … }`: swift-async-algorithms' validation form as its tests and issues
/// write it (`AsyncSequenceValidationDiagram`'s result builder): input diagrams, one expression
/// over `$0.inputs[N]` and `$0.clock`, and the expected output diagram, a statement a line or
/// separated by `;`. `validate { diagram in … }` names the diagram instead of `$0`.
public struct ValidationBlock: Sendable {
  /// A diagram as written: its text between the quotes, and the literal's range, quotes included.
  public struct Diagram: Sendable {
    public let text: String
    public let range: SourceRange
    /// Where the text starts: the byte after the opening quote.
    public var textStart: Int { range.start + 1 }
  }

  /// The name the block gives the diagram (`diagram in`), or nil for `$0`.
  public let parameter: Identifier?
  public let inputs: [Diagram]
  public let operation: SwiftExpr
  public let output: Diagram

  /// Reads the text between the braces of `validate { … }`; `block` is the braces' range.
  public static func parse(_ source: SourceFile, block: SourceRange) -> Result<ValidationBlock, Diagnostic> {
    let inner = SourceRange(block.start + 1, max(block.start + 1, block.end - 1))
    let (all, lexical) = Lexer.tokenize(source, range: inner)
    let comments = lineComments(source, inner)
    func commented(_ range: SourceRange) -> Bool {
      comments.contains { $0.start <= range.start && range.start < $0.end }
    }
    if let first = lexical.first(where: { !commented($0.range) }) {
      return .failure(first.adding(note: "validate reads Swift as written in AA's tests"))
    }
    var reader = SwiftReader(tokens: all.filter { !commented($0.range) })
    var parameter: Identifier?
    reader.skipSeparators()
    if reader.current.kind == .identifier, reader.peek(1).kind == .identifier, reader.peek(1).text == "in" {
      parameter = Identifier(reader.current.text, reader.current.range)
      reader.advance()
      reader.advance()
    }
    var statements: [SwiftExpr] = []
    while true {
      reader.skipSeparators()
      if reader.current.kind == .end { break }
      let expression = reader.expression()
      if let problem = reader.problem { return .failure(problem) }
      statements.append(expression)
      if !reader.atStatementEnd {
        return .failure(
          ValidationMessages.syntax(
            "expected a new line or ';' after this statement, found \(DiagnosticMessages.describe(reader.current))",
            reader.current.range))
      }
    }
    func diagram(_ expression: SwiftExpr) -> Diagram? {
      if case .string(let text) = expression.kind { return Diagram(text: text, range: expression.range) }
      return nil
    }
    guard let operationIndex = statements.firstIndex(where: { diagram($0) == nil }) else {
      let at = statements.last.map { SourceRange($0.range.end, $0.range.end) } ?? SourceRange(inner.end, inner.end)
      return .failure(
        ValidationMessages.shape(
          "expected the operation after the input diagrams ($0.inputs[0].debounce(for: .steps(3), clock: $0.clock))",
          at))
    }
    let inputs = statements[..<operationIndex].compactMap(diagram)
    let after = statements[(operationIndex + 1)...]
    guard let outputExpression = after.first, let output = diagram(outputExpression) else {
      let operation = statements[operationIndex]
      let at = after.first?.range ?? SourceRange(operation.range.end, operation.range.end)
      return .failure(
        ValidationMessages.shape(
          after.isEmpty
            ? "missing the output diagram after the operation" : "expected the output diagram, a string, here", at))
    }
    if let extra = after.dropFirst().first {
      return .failure(ValidationMessages.shape("nothing may follow the output diagram", extra.range))
    }
    return .success(
      ValidationBlock(parameter: parameter, inputs: inputs, operation: statements[operationIndex], output: output))
  }
}

/// The `// …` comments of a block's text, each to its line's end (not the newline).
private func lineComments(_ source: SourceFile, _ range: SourceRange) -> [SourceRange] {
  let bytes = Array(source.text(of: range).utf8)
  var comments: [SourceRange] = []
  var index = 0
  var inString = false
  while index < bytes.count {
    let byte = bytes[index]
    if inString {
      if byte == UInt8(ascii: "\\") {
        index += 2
        continue
      }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") { inString = false }
    } else if byte == UInt8(ascii: "\"") {
      inString = true
    } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
      let start = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      comments.append(SourceRange(range.start + start, range.start + index))
      continue
    }
    index += 1
  }
  return comments
}

/// A Swift expression of a validation block, as far as pipesh reads Swift: names, members
/// (`.steps(3)`, `$0.inputs`), calls with labelled arguments and trailing closures, subscripts,
/// literals. A closure is kept as written, for the translation to read with pipesh's parser.
public struct SwiftExpr: Sendable {
  public indirect enum Kind: Sendable {
    /// `$0`, `diagram`, `merge`, `AsyncTimerSequence`, `true`
    case name(String)
    /// `base.name`; no base: an implicit member (`.steps`, `.bufferingOldest`).
    case member(SwiftExpr?, Identifier)
    /// `callee(arguments) { closure }`
    case call(SwiftExpr, [SwiftArgument])
    /// `base[index]`
    case subscripted(SwiftExpr, SwiftExpr)
    case integer(Int)
    case string(String)
    /// `{ … }`: its range is the braces'.
    case closure
    /// Swift pipesh does not read here (an operator such as `??`, a `!`), kept for the message.
    case unreadable(String)
  }

  public let kind: Kind
  public let range: SourceRange
}

/// An argument of a call in a validation block; a trailing closure has no label.
public struct SwiftArgument: Sendable {
  public let label: Identifier?
  public let value: SwiftExpr
}

/// Reads the Swift of a validation block from pipesh's tokens.
private struct SwiftReader {
  let tokens: [Token]
  var position = 0
  var problem: Diagnostic?
  var depth = 0

  var current: Token { tokens[position] }

  func peek(_ ahead: Int) -> Token { tokens[min(position + ahead, tokens.count - 1)] }

  @discardableResult
  mutating func advance() -> Token {
    let token = tokens[position]
    if position < tokens.count - 1 { position += 1 }
    return token
  }

  var previousEnd: Int { position > 0 ? tokens[position - 1].range.end : current.range.start }

  var atStatementEnd: Bool {
    current.kind == .end || current.kind == .newline || current.isPunctuation(";")
  }

  mutating func skipSeparators() {
    while current.kind == .newline || current.isPunctuation(";") { advance() }
  }

  mutating func fail(_ message: String, _ range: SourceRange) -> SwiftExpr {
    if problem == nil { problem = ValidationMessages.syntax(message, range) }
    return SwiftExpr(kind: .unreadable(message), range: range)
  }

  /// A postfix chain; a line that starts with `.` continues it (`$0.inputs[0]` ⏎ `.map { … }`).
  /// A binary operator after it is kept as unreadable, for the translation to name.
  mutating func expression() -> SwiftExpr {
    depth += 1
    defer { depth -= 1 }
    guard depth < 64 else { return fail("this expression nests too deep", current.range) }
    let start = current.range.start
    var expression = postfix()
    while problem == nil, current.kind == .punctuation,
      ["?", "+", "-", "*", "/", "%", "==", "!=", "&&", "||", "<", ">", "<=", ">="].contains(current.text)
    {
      let operatorToken = advance()
      if operatorToken.isPunctuation("?"), current.isPunctuation("?") { advance() }
      _ = postfix()
      expression = SwiftExpr(
        kind: .unreadable("the operator '\(operatorToken.text)'"), range: SourceRange(start, previousEnd))
    }
    return expression
  }

  /// The most links a postfix chain may have (`.a().b()…`): more is refused, not read, so no block
  /// can exhaust the stack of what reads the chain after it.
  static let maximumChain = 200

  mutating func postfix() -> SwiftExpr {
    let start = current.range.start
    var expression = primary()
    var links = 0
    while problem == nil {
      links += 1
      if links > Self.maximumChain {
        return fail("this expression is too long: at most \(Self.maximumChain) calls and members", current.range)
      }
      if current.kind == .newline, peek(1).isPunctuation("."), depth == 1 {
        advance()
        continue
      }
      if current.isPunctuation("."), peek(1).kind == .identifier || peek(1).kind == .integer {
        advance()
        let name = advance()
        expression = SwiftExpr(
          kind: .member(expression, Identifier(name.text, name.range)), range: SourceRange(start, previousEnd))
      } else if current.isPunctuation("("), !current.spaceBefore {
        let arguments = callArguments()
        expression = SwiftExpr(kind: .call(expression, arguments), range: SourceRange(start, previousEnd))
      } else if current.isPunctuation("{") {
        let closure = self.closure()
        let trailing = SwiftArgument(label: nil, value: closure)
        if case .call(let callee, let arguments) = expression.kind, !endsInClosure(arguments) {
          expression = SwiftExpr(
            kind: .call(callee, arguments + [trailing]), range: SourceRange(start, previousEnd))
        } else {
          expression = SwiftExpr(kind: .call(expression, [trailing]), range: SourceRange(start, previousEnd))
        }
      } else if current.isPunctuation("["), !current.spaceBefore {
        let open = advance()
        let index = self.expression()
        guard current.isPunctuation("]") else {
          return fail("expected ']' to match this '['", open.range)
        }
        advance()
        expression = SwiftExpr(kind: .subscripted(expression, index), range: SourceRange(start, previousEnd))
      } else if current.isPunctuation("!") || current.isPunctuation("?"), !current.spaceBefore {
        let mark = advance()
        expression = SwiftExpr(
          kind: .unreadable("'\(mark.text)' (an optional's unwrapping)"), range: SourceRange(start, previousEnd))
      } else {
        break
      }
    }
    return expression
  }

  private func endsInClosure(_ arguments: [SwiftArgument]) -> Bool {
    guard let last = arguments.last, last.label == nil, case .closure = last.value.kind else { return false }
    return true
  }

  mutating func primary() -> SwiftExpr {
    let token = current
    switch token.kind {
    case .dollar, .identifier:
      advance()
      return SwiftExpr(kind: .name(token.text), range: token.range)
    case .integer:
      advance()
      guard let value = Int(token.text.replacing("_", with: "")) else {
        return fail("'\(token.text)' is not a number pipesh can hold", token.range)
      }
      return SwiftExpr(kind: .integer(value), range: token.range)
    case .string:
      advance()
      return SwiftExpr(kind: .string(token.text), range: token.range)
    case .punctuation where token.text == "." && peek(1).kind == .identifier:
      advance()
      let name = advance()
      return SwiftExpr(
        kind: .member(nil, Identifier(name.text, name.range)), range: SourceRange(token.range.start, name.range.end))
    case .punctuation where token.text == "{":
      return closure()
    case .punctuation where token.text == "(":
      let open = advance()
      let inner = expression()
      guard current.isPunctuation(")") else { return fail("expected ')' to match this '('", open.range) }
      advance()
      return SwiftExpr(kind: inner.kind, range: SourceRange(open.range.start, previousEnd))
    case .punctuation where token.text == "-" && peek(1).kind == .integer && !peek(1).spaceBefore:
      advance()
      let number = advance()
      guard let value = Int("-" + number.text) else {
        return fail("'-\(number.text)' is not a number pipesh can hold", number.range)
      }
      return SwiftExpr(kind: .integer(value), range: SourceRange(token.range.start, number.range.end))
    case .float, .duration, .punctuation, .newline, .end, .invalid:
      return fail("expected an expression, found \(DiagnosticMessages.describe(token))", token.range)
    }
  }

  /// `(label: value, value)`
  mutating func callArguments() -> [SwiftArgument] {
    let open = advance()
    var arguments: [SwiftArgument] = []
    while problem == nil, !current.isPunctuation(")") {
      guard current.kind != .end else {
        _ = fail("expected ')' to match this '('", open.range)
        return arguments
      }
      var label: Identifier?
      if current.kind == .identifier, peek(1).isPunctuation(":") {
        label = Identifier(current.text, current.range)
        advance()
        advance()
      }
      arguments.append(SwiftArgument(label: label, value: expression()))
      if current.isPunctuation(",") {
        advance()
      } else if !current.isPunctuation(")"), problem == nil {
        _ = fail("expected ',' or ')' in the arguments, found \(DiagnosticMessages.describe(current))", current.range)
      }
    }
    advance()
    return arguments
  }

  /// `{ … }` up to its matching brace, kept as its range.
  mutating func closure() -> SwiftExpr {
    let open = advance()
    var nested = 0
    while current.kind != .end {
      if current.isPunctuation("{") { nested += 1 }
      if current.isPunctuation("}") {
        if nested == 0 { break }
        nested -= 1
      }
      advance()
    }
    guard current.isPunctuation("}") else { return fail("expected '}' to match this '{'", open.range) }
    let close = advance()
    return SwiftExpr(kind: .closure, range: SourceRange(open.range.start, close.range.end))
  }
}

/// The messages of `validate`'s block, read as Swift.
public enum ValidationMessages {
  public static func syntax(_ message: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .validationSyntax, message: "validate: \(message)", range: range,
      notes: ["validate reads swift-async-algorithms' validation form: input diagrams, the operation, the output"])
  }

  public static func shape(_ message: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .validationShape, message: "validate: \(message)", range: range,
      notes: ["write validate { \"INPUT\" ⏎ $0.inputs[0].OPERATOR ⏎ \"OUTPUT\" }, a statement a line or ';' between"])
  }
}

extension DiagnosticID {
  public static let validationSyntax = DiagnosticID("validation-syntax")
  public static let validationShape = DiagnosticID("validation-shape")
}
