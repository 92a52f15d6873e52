/// Arguments: labels, values, pipeline closures and verbatim blocks.
extension Parser {
  /// A stage's or command's arguments; with `pipelineClosure`, `{ … }` holds a pipeline, and after
  /// one of `pipelineLabels`, `( … )` does (`chunked by: (timer 1)`).
  mutating func parseArguments(pipelineClosure: Bool = false, pipelineLabels: Set<String> = []) -> [Argument] {
    var arguments: [Argument] = []
    while !atArgumentsEnd {
      if pipelineClosure, current.isPunctuation("{") {
        let start = current.range.start
        let body = parsePipelineClosure()
        arguments.append(Argument(label: nil, value: body, range: SourceRange(start, previousEnd)))
        continue
      }
      let start = current.range.start
      let label = parseLabel()
      if let label, pipelineLabels.contains(label.name), current.isPunctuation("(") {
        let sequence = parsePipelineArgument()
        arguments.append(Argument(label: label, value: sequence, range: SourceRange(start, previousEnd)))
        continue
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
      var value = parseUnary()
      if case .name(let name) = value.kind, current.isPunctuation("?"), !current.spaceBefore {
        // An optional type name: `channel user of: String?`.
        advance()
        value = Expr(.name(name + "?"), SourceRange(value.range.start, previousEnd))
      }
      arguments.append(Argument(label: label, value: value, range: SourceRange(start, previousEnd)))
    }
    return arguments
  }

  /// `{ PIPELINE }`: the per-element pipeline of `flatMap` and `flatMapLatest`.
  mutating func parsePipelineClosure() -> Expr {
    let open = advance()
    // Inside the braces a command's options (`draw … tick:`) do not end the pipeline.
    let options = commandOptions
    commandOptions = []
    combinatorDepth += 1
    pipelineClosureDepth += 1
    defer {
      commandOptions = options
      combinatorDepth -= 1
      pipelineClosureDepth -= 1
    }
    let body = parsePipeline()
    if consume("}") == nil {
      if current.kind != .invalid {
        diagnostics.append(DiagnosticMessages.unbalanced("{", at: open.range, found: current))
      }
      skipClosure()
    }
    return Expr(.pipeline(body), SourceRange(open.range.start, previousEnd))
  }

  /// `( PIPELINE )` after a label that takes a sequence (`chunked by: (timer 1)`): a pipeline of
  /// its own, started by a source, as a group or a combinator's input is.
  mutating func parsePipelineArgument() -> Expr {
    let open = advance()
    // Inside the parentheses a command's options (`draw … tick:`) belong to what is inside.
    let options = commandOptions
    commandOptions = []
    combinatorDepth += 1
    defer {
      commandOptions = options
      combinatorDepth -= 1
    }
    let inner = parsePipeline()
    if consume(")") == nil {
      diagnostics.append(DiagnosticMessages.unbalanced("(", at: open.range, found: current))
      skipStage()
      _ = consume(")")
    }
    return Expr(.pipeline(inner), SourceRange(open.range.start, previousEnd))
  }

  /// `{ … }` after a command that takes its block as written (`validate { … }`): the text up to the
  /// matching `}`, braces in its strings not counted. The lexer's complaints inside it are dropped
  /// (it is not pipesh); the command reads the text and reports its own, at their place.
  mutating func parseVerbatimBlock() -> Argument {
    let open = advance()
    var depth = 0
    while current.kind != .end {
      if current.isPunctuation("{") { depth += 1 }
      if current.isPunctuation("}") {
        if depth == 0 { break }
        depth -= 1
      }
      advance()
    }
    let (end, innerEnd): (Int, Int)
    if let close = consume("}") {
      (end, innerEnd) = (close.range.end, close.range.start)
    } else {
      end = current.range.start
      innerEnd = end
    }
    let block = SourceRange(open.range.start, end)
    diagnostics.removeAll { $0.range.start > block.start && $0.range.start < block.end }
    if innerEnd == end {
      diagnostics.append(DiagnosticMessages.unbalanced("{", at: open.range, found: current))
    }
    let inner = SourceRange(open.range.end, max(open.range.end, innerEnd))
    return Argument(label: nil, value: Expr(.verbatim(source.text(of: inner)), block), range: block)
  }

  /// `NAME:` before an argument, if there is one.
  mutating func parseLabel() -> Identifier? {
    guard current.kind == .identifier, peek(1).isPunctuation(":") else { return nil }
    let label = Identifier(current.text, current.range)
    advance()
    advance()
    return label
  }

  var canStartArgument: Bool {
    switch current.kind {
    case .identifier, .integer, .float, .duration, .string, .dollar: true
    case .punctuation: ["{", "[", "(", "-", "!"].contains(current.text)
    case .newline, .end, .invalid: false
    }
  }
}
