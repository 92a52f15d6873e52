/// Parses statements, pipelines and closures. It never throws and never stops at the first error:
/// it records a diagnostic, inserts a missing node, skips to a place it can resume from, and goes on,
/// so a script shows all its errors at once.
public struct Parser {
  let grammar: Grammar
  let source: SourceFile
  var tokens: [Token]
  var position = 0
  var diagnostics: [Diagnostic] = []
  var closureDepth = 0
  /// Inside `flatMap { PIPELINE }`, where arguments may be worked out per element (`"\($0)!"`).
  var pipelineClosureDepth = 0
  /// How deep the statement being parsed nests: brackets, closures, stages in groups, unary and
  /// binary operators. Past `maximumNesting` the statement is reported once and skipped, so no
  /// input can exhaust the stack of the parser or of the checker and evaluator after it.
  var nesting = 0
  var tooDeep = false
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
        let first =
          parser.diagnostics[reported...].firstIndex { $0.id == .nestingTooDeep } ?? reported
        parser.diagnostics.removeSubrange((first + 1)...)
        parser.tooDeep = false
        parser.nesting = 0
      } else if let statement {
        statements.append(statement)
      }
      if !parser.atStatementEnd {
        if case .command(let name, _, _)? = statement?.kind, parser.current.isPunctuation("&") {
          parser.diagnostics.append(
            DiagnosticMessages.backgroundCommand(
              parser.current, command: name.name, note: parser.grammar.backgroundNotes[name.name]))
        } else {
          parser.diagnostics.append(DiagnosticMessages.unexpectedToken(parser.current, after: "at end of statement"))
        }
        parser.skipStatement()
      }
      if parser.position == before { parser.advance() }
    }
    let sorted = parser.diagnostics.sorted { $0.range.start < $1.range.start }
    return Script(source: source, statements: statements, diagnostics: sorted)
  }

  // MARK: tokens

  var current: Token { tokens[position] }

  func peek(_ ahead: Int) -> Token {
    tokens[min(position + ahead, tokens.count - 1)]
  }

  @discardableResult
  mutating func advance() -> Token {
    let token = tokens[position]
    if position < tokens.count - 1 { position += 1 }
    return token
  }

  mutating func consume(_ punctuation: String) -> Token? {
    current.isPunctuation(punctuation) ? advance() : nil
  }

  var atStatementEnd: Bool {
    current.kind == .end || current.kind == .newline || current.isPunctuation(";")
  }

  mutating func skipSeparators() {
    while current.kind == .newline || current.isPunctuation(";") { advance() }
  }

  /// Skips to the end of the statement, past balanced brackets.
  mutating func skipStatement() {
    while !atStatementEnd { advance() }
  }

  /// Skips to a token a stage list can resume at: `|`, `,`, a closing bracket or the statement's end.
  mutating func skipStage() {
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

  var previousEnd: Int {
    position > 0 ? tokens[position - 1].range.end : 0
  }

  /// Enters one more level of nesting; past the limit, reports it once and skips the statement.
  /// The caller leaves the level with `nesting -= 1` whatever the answer.
  mutating func enterNesting() -> Bool {
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

  mutating func parseStatement() -> Statement? {
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
    if current.kind == .identifier, grammar.commands.contains(current.text), !peek(1).isPunctuation("|"),
      !grammar.commandsAlsoStages.contains(current.text) || peek(1).kind == .identifier
    {
      let name = Identifier(current.text, current.range)
      advance()
      // No pipeline starts with a string: `draw "F.trace"` names a saved trace.
      if let options = grammar.pipelineCommands[name.name], current.kind != .string {
        commandOptions = options
        claimWords = grammar.claimWords[name.name] ?? []
        let pipeline = parsePipeline()
        commandOptions = []
        var arguments: [Argument] = []
        if atClaimWord {
          // The claim's word is the first argument, a bare name (`==` too).
          let word = advance()
          arguments.append(Argument(label: nil, value: Expr(.name(word.text), word.range), range: word.range))
        }
        claimWords = []
        arguments += parseArguments()
        if current.isPunctuation("|"), lastStageTakesAnOption(arguments, of: pipeline) {
          // `draw marble "ab|" tick: 2 | map …`: the checker says whose `tick:` it could be; the
          // stages after it are not read, so that this is the one error.
          let end = previousEnd
          skipStatement()
          return Statement(.command(name, arguments, pipeline), SourceRange(start, end))
        }
        return Statement(.command(name, arguments, pipeline), SourceRange(start, previousEnd))
      }
      if grammar.verbatimBlocks.contains(name.name), current.isPunctuation("{") {
        let block = parseVerbatimBlock()
        let arguments = [block] + parseArguments()
        return Statement(.command(name, arguments, nil), SourceRange(start, previousEnd))
      }
      let arguments = parseArguments()
      return Statement(.command(name, arguments, nil), SourceRange(start, previousEnd))
    }
    let pipeline = parsePipeline()
    let background = consume("&") != nil
    return Statement(.run(pipeline, background: background), SourceRange(start, previousEnd))
  }

  /// Whether the pipeline's last stage takes a label one of the command's options has.
  private func lastStageTakesAnOption(_ options: [Argument], of pipeline: Pipeline) -> Bool {
    guard case .call(let stage, _)? = pipeline.stages.last?.kind, let labels = grammar.stageLabels[stage.name] else {
      return false
    }
    return options.contains { $0.label.map { labels.contains($0.name) } ?? false }
  }

  // MARK: pipelines

  mutating func parsePipeline() -> Pipeline {
    let start = current.range.start
    var stages = [parseStage(isSource: true)]
    while consume("|") != nil {
      stages.append(parseStage(isSource: false))
    }
    return Pipeline(stages: stages, range: SourceRange(start, max(start, previousEnd)))
  }

  mutating func parseStage(isSource: Bool) -> Stage {
    let start = current.range.start
    defer { nesting -= 1 }
    guard enterNesting() else { return Stage(.missing, SourceRange(start, start)) }
    if isSource, let open = consume("(") {
      // Inside the parentheses a command's options (`draw … tick:`) belong to what is inside.
      let options = commandOptions
      commandOptions = []
      defer { commandOptions = options }
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
      if grammar.stages?.contains(name.name) ?? true {
        diagnostics.append(
          DiagnosticMessages.notACombinator(
            name.name, arguments: arguments.map { source.text(of: $0.range) }, SourceRange(start, previousEnd),
            combinators: grammar.combinatorList))
      }
      return Stage(.call(name, arguments), SourceRange(start, previousEnd))
    }
    if current.isPunctuation("("), !current.spaceBefore {
      let open = advance()
      combinatorDepth += 1
      defer { combinatorDepth -= 1 }
      let inputs = parseList(after: open, closing: ")") { $0.parsePipeline() }
      return Stage(.combinator(name, inputs), SourceRange(start, previousEnd))
    }
    let arguments = parseArguments(
      pipelineClosure: grammar.pipelineClosures.contains(name.name),
      pipelineLabels: grammar.pipelineArguments[name.name] ?? [])
    return Stage(.call(name, arguments), SourceRange(start, max(name.range.end, previousEnd)))
  }

  var combinatorDepth = 0
  /// The labels that end the pipeline of the command being parsed (`tick` after `draw`).
  var commandOptions: Set<String> = []
  var isInsideCombinator: Bool { combinatorDepth > 0 }

  var atArgumentsEnd: Bool {
    atStatementEnd || current.isPunctuation("|") || current.isPunctuation("&") || current.isPunctuation(")")
      || current.isPunctuation(",") || current.isPunctuation("]") || current.isPunctuation("}") || atCommandOption
  }

  /// At `tick:` after `draw …`: the pipeline's last stage ends, the command's options begin.
  private var atCommandOption: Bool {
    // A claim's command (`expect`) takes its options after the claim: before it, a label is a stage's.
    !commandOptions.isEmpty && claimWords.isEmpty && !isInsideCombinator && current.kind == .identifier
      && peek(1).isPunctuation(":")
      && commandOptions.contains(current.text) || atClaimWord
  }

  /// The words that end the pipeline of the command being parsed and start its claim (`==` after
  /// `expect …`).
  var claimWords: Set<String> = []

  /// At `==` or `prints` after `expect …`: the pipeline's last stage ends, the claim begins.
  var atClaimWord: Bool {
    !claimWords.isEmpty && !isInsideCombinator && closureDepth == 0 && claimWords.contains(current.text)
      && (current.kind == .identifier && !peek(1).isPunctuation(":") || current.kind == .punctuation)
  }
}
