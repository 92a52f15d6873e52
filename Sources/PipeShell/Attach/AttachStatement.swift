import PipeSyntax

/// A statement of an attached session (`pipesh attach SOCKET -c TEXT`): what can be asked of a
/// running program's probes. Read from pipesh's tokens, so an error points at its place.
enum AttachStatement: Equatable {
  /// `jobs`: a row per probe's lane: its state, elements, asks, asking task and last event.
  case jobs
  /// `tasks`: a row per task that asked a probe: the lanes it asked, those it waits on now.
  case tasks
  /// `top`: a row per lane with its rate, refreshed each second at a terminal until Ctrl-C.
  case top
  /// `why FROM TO`: the elements of probe FROM that did not come out at probe TO, after it.
  case why(from: Identifier, to: Identifier)
  /// `draw [NAME…] [until: D] [tick: D]`: the lanes as they are now (of NAMEs alone, if given).
  case draw(names: [Identifier], until: Duration?, tick: Duration?)
  /// `sleep D`: waits on the real clock while the program runs on.
  case sleep(Duration)
  /// `save "F"`: writes the trace as it is now, for `draw "F"` and `replay "F"` later.
  case save(String)

  /// The commands, as the errors list them.
  static let usage =
    "jobs, tasks, top, why FROM TO, draw [NAME…] [until: D] [tick: D], sleep D and save \"F.trace\""

  /// The statements of `source`, or what is wrong with them (nothing runs then).
  static func parse(_ source: SourceFile) -> (statements: [AttachStatement], diagnostics: [Diagnostic]) {
    let (tokens, lexical) = Lexer.tokenize(source)
    var diagnostics = lexical
    var statements: [AttachStatement] = []
    var current: [Token] = []
    for token in tokens {
      guard token.kind == .newline || token.kind == .end || token.isPunctuation(";") else {
        current.append(token)
        continue
      }
      defer { current = [] }
      guard !current.isEmpty else { continue }
      switch statement(current) {
      case .success(let statement): statements.append(statement)
      case .failure(let problem): diagnostics.append(problem)
      }
    }
    return (statements, diagnostics)
  }

  private static func statement(_ tokens: [Token]) -> Result<AttachStatement, Diagnostic> {
    let head = tokens[0]
    let rest = Array(tokens.dropFirst())
    switch head.kind == .identifier ? head.text : "" {
    case "jobs", "tasks", "top":
      let statement: AttachStatement = head.text == "jobs" ? .jobs : head.text == "tasks" ? .tasks : .top
      guard let extra = rest.first else { return .success(statement) }
      return .failure(
        problem(
          "\(head.text) takes nothing here: it lists every probe's \(head.text == "tasks" ? "task" : "lane")",
          extra.range))
    case "draw": return draw(rest, after: head)
    case "sleep":
      guard rest.count == 1, let duration = duration(rest[0]) else {
        return .failure(problem("sleep takes one duration, as in sleep 1s", (rest.first ?? head).range))
      }
      return .success(.sleep(duration))
    case "save":
      guard rest.count == 1, rest[0].kind == .string, !rest[0].text.isEmpty else {
        return .failure(
          problem("save takes a file's name in quotes, as in save \"now.trace\"", (rest.first ?? head).range))
      }
      return .success(.save(rest[0].text))
    case "why":
      // A lane's name as jobs shows it: a word, or in quotes ("keys #2").
      let names = rest.compactMap { token in
        token.kind == .identifier || (token.kind == .string && !token.text.isEmpty)
          ? Identifier(token.text, token.range) : nil
      }
      guard rest.count == 2, names.count == 2 else {
        return .failure(
          problem(
            "why takes two probes' names, the one before an operator and the one after it, as in why keys debounced",
            (rest.count > 2 ? rest[2] : rest.first(where: { $0.kind != .identifier && $0.kind != .string }) ?? head)
              .range))
      }
      return .success(.why(from: names[0], to: names[1]))
    default:
      let guess = NameSuggester.suggestion(
        for: head.text, in: ["jobs", "tasks", "top", "why", "draw", "sleep", "save"])
      return .failure(
        Diagnostic(
          id: .expected, message: "'\(head.text)' is not a command of an attached session", range: head.range,
          notes: (guess.map { ["did you mean '\($0)'?"] } ?? []) + ["an attached session knows \(usage)"]))
    }
  }

  private static func draw(_ tokens: [Token], after head: Token) -> Result<AttachStatement, Diagnostic> {
    var names: [Identifier] = []
    var options: [String: Duration] = [:]
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      let labelled = index + 1 < tokens.count && tokens[index + 1].isPunctuation(":")
      if token.kind == .identifier, labelled {
        guard ["until", "tick"].contains(token.text), options[token.text] == nil else {
          return .failure(problem("draw takes until: D and tick: D, each once", token.range))
        }
        guard index + 2 < tokens.count, let duration = duration(tokens[index + 2]) else {
          return .failure(problem("\(token.text): takes a duration, as in \(token.text): 5s", token.range))
        }
        options[token.text] = duration
        index += 3
        continue
      }
      // A name as jobs shows it: a word, or in quotes ("keys #2", a name with spaces).
      guard token.kind == .identifier || (token.kind == .string && !token.text.isEmpty), options.isEmpty else {
        return .failure(problem("draw takes probes' names, then until: D and tick: D", token.range))
      }
      names.append(Identifier(token.text, token.range))
      index += 1
    }
    return .success(.draw(names: names, until: options["until"], tick: options["tick"]))
  }

  /// A duration literal (`250ms`) or a number of seconds, more than zero.
  static func duration(_ token: Token) -> Duration? {
    let seconds: Double?
    switch token.kind {
    case .integer, .float: seconds = Double(token.text.filter { $0 != "_" })
    case .duration:
      let unit = token.text.drop { $0.isNumber || $0 == "." || $0 == "_" || $0 == "e" || $0 == "E" }
      let number = Double(token.text.dropLast(unit.count).filter { $0 != "_" })
      seconds = number.flatMap { value in Duration.unitScale(String(unit)).map { value * $0 / 1e9 } }
    default: seconds = nil
    }
    guard let seconds, seconds > 0 else { return nil }
    return Duration.fromSeconds(seconds)
  }

  private static func problem(_ message: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .expected, message: message, range: range)
  }
}
