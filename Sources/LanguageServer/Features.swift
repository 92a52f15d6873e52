import PipeSema
import PipeSession
import PipeShell
import PipeSyntax

/// The requests the server answers once initialized, besides `shutdown`.
enum Request: String {
  case hover = "textDocument/hover"
  case completion = "textDocument/completion"
  case definition = "textDocument/definition"
  case documentSymbol = "textDocument/documentSymbol"
  case formatting = "textDocument/formatting"
  case codeAction = "textDocument/codeAction"
}

extension LanguageServer {
  /// The code action's kind: a source action, offered for the whole file.
  static let exportKind = "source.export.swift"

  func answer(_ request: Request, _ params: JSON) async -> Result<JSON, Failure> {
    guard let uri = params["textDocument"]?["uri"]?.string else {
      return .failure(Failure(code: .invalidParams, message: "\(request.rawValue) needs textDocument.uri"))
    }
    guard let document = documents[uri] else {
      return .failure(Failure(code: .invalidParams, message: "\(uri) is not open (send textDocument/didOpen first)"))
    }
    switch request {
    case .documentSymbol: return .success(symbols(document))
    case .formatting: return formatting(document)
    case .codeAction: return .success(codeActions(document))
    case .hover, .completion, .definition:
      guard let line = params["position"]?["line"]?.int, let character = params["position"]?["character"]?.int else {
        return .failure(Failure(code: .invalidParams, message: "\(request.rawValue) needs a position"))
      }
      let offset: Int
      switch document.offset(line: line, character: character, encoding) {
      case .success(let found): offset = found
      case .failure(let problem): return .failure(Failure(code: .invalidParams, message: problem.message))
      }
      switch request {
      case .hover: return .success(await hover(document, at: offset))
      case .completion: return .success(completion(document, at: offset))
      default: return .success(definition(document, at: offset))
      }
    }
  }

  /// `textDocument/publishDiagnostics` for an open document: what `pipesh --check` says of it,
  /// each with its range, its id as the code, and its notes after the message as `note:` lines.
  func diagnostics(_ uri: String) -> JSON {
    guard let document = documents[uri] else { return .null }
    let diagnostics = Engine.check(Self.checked(document), in: Environment.pipesh)
    let items: [JSON] = diagnostics.map { diagnostic in
      let message = ([diagnostic.message] + diagnostic.notes.map { "note: " + $0 }).joined(separator: "\n")
      return [
        "range": document.range(diagnostic.range, encoding),
        "severity": diagnostic.severity == .error ? 1 : 2,
        "code": .string(diagnostic.id.rawValue),
        "source": "pipesh",
        "message": .string(message),
      ]
    }
    return [
      "jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
      "params": ["uri": .string(uri), "version": .int(document.version), "diagnostics": .array(items)],
    ]
  }

  /// The document as `pipesh --check` reads the file: a first `#!` line is a comment.
  static func checked(_ document: Document) -> SourceFile {
    SourceFile(name: document.source.name, text: Shell.strippingShebang(document.text))
  }

  /// What `help NAME` says of the word under the cursor; for a `let` name, its definition.
  private func hover(_ document: Document, at offset: Int) async -> JSON {
    guard let word = Self.identifier(in: document, at: offset) else { return .null }
    let lines: [String]
    if let binding = Self.binding(word.text, in: document, usedAt: offset) {
      lines = [document.source.text(of: binding.statement)]
    } else if let help = await Shell.helpLines(word.text) {
      lines = help
    } else {
      return .null
    }
    return [
      "contents": ["kind": "markdown", "value": .string("```\n" + lines.joined(separator: "\n") + "\n```")],
      "range": document.range(word.range, encoding),
    ]
  }

  /// What the shell's Tab offers at the cursor, with the script's `let` and channel names.
  private func completion(_ document: Document, at offset: Int) -> JSON {
    let environment = Engine.parseAndCheck(Self.checked(document), in: Environment.pipesh).environment
    var context = CompletionContext()
    let bindings = environment.bindings.values
    context.sourceFragments = bindings.filter(\.isSource).map(\.name)
    context.operatorFragments = bindings.filter { !$0.isSource }.map(\.name)
    context.channels = environment.channels.keys.sorted()
    let before = document.statementBefore(offset)
    let (wordLength, candidates) = Completion.complete(before, context)
    // The word the candidates replace, as Tab replaces it (a path's slashes and dots included).
    let replaced = document.range(SourceRange(offset - String(before.suffix(wordLength)).utf8.count, offset), encoding)
    let names = Set(bindings.map(\.name)).union(environment.channels.keys)
    let items: [JSON] = candidates.map { candidate in
      var item: [String: JSON] = [
        "label": .string(candidate), "textEdit": ["range": replaced, "newText": .string(candidate)],
      ]
      if names.contains(candidate) {
        item["kind"] = 6  // Variable
      } else if candidate.hasSuffix(":") {
        item["kind"] = 10  // Property: an argument label
      } else if let signature = OperatorKind.signatures[candidate.trimmingSuffix("(")] {
        item["kind"] = 3  // Function
        item["detail"] = .string(signature.usage)
      } else if let command = Commands.table[candidate] {
        item["kind"] = 14  // Keyword
        item["detail"] = .string(command.signature.usage)
      } else {
        item["kind"] = 1  // Text
      }
      return .object(item)
    }
    return ["isIncomplete": false, "items": .array(items)]
  }

  /// Where the `let` name or channel under the cursor is defined: the latest `let` of the name
  /// before the cursor, or the first place a channel, stream or subject of the name is written.
  private func definition(_ document: Document, at offset: Int) -> JSON {
    guard let word = Self.identifier(in: document, at: offset) else { return .null }
    let target =
      Self.binding(word.text, in: document, usedAt: offset)?.name.range
      ?? Self.channels(document).first(where: { $0.name == word.text })?.range
    guard let target else { return .null }
    return ["uri": .string(document.uri), "range": document.range(target, encoding)]
  }

  /// The `let` names and the channels, streams and subjects, in the order they are written.
  private func symbols(_ document: Document) -> JSON {
    var found: [(start: Int, symbol: JSON)] = Self.bindings(document).map { binding in
      (
        binding.name.range.start,
        [
          "name": .string(binding.name.name), "kind": 13,  // Variable
          "range": document.range(binding.statement, encoding),
          "selectionRange": document.range(binding.name.range, encoding),
        ]
      )
    }
    for channel in Self.channels(document) {
      found.append(
        (
          channel.range.start,
          [
            "name": .string(channel.name), "kind": 24,  // Event
            "detail": .string(channel.kind),
            "range": document.range(channel.range, encoding), "selectionRange": document.range(channel.range, encoding),
          ]
        ))
    }
    return .array(found.sorted { $0.start < $1.start }.map(\.symbol))
  }

  /// The whole document in `pipesh fmt`'s layout: one edit, or none when it is in it.
  private func formatting(_ document: Document) -> Result<JSON, Failure> {
    switch Formatter.format(document.source, grammar: .pipesh) {
    case .success(let text) where text == document.text: return .success([])
    case .success(let text):
      return .success([["range": document.wholeRange(encoding), "newText": .string(text)]])
    case .failure(let refusal):
      let first = refusal.diagnostics.first.map { ": \($0.message)" } ?? ""
      return .failure(Failure(code: .requestFailed, message: "fix the syntax first\(first)"))
    }
  }

  /// "Export as Swift": a file beside the script (`F.pipe` → `F.swift`) holding what
  /// `pipesh --emit-swift` prints; offered when the script checks and exports.
  private func codeActions(_ document: Document) -> JSON {
    guard case .success(let program) = Shell.exportedSwift(Self.checked(document)) else { return [] }
    let base = document.uri.hasSuffix(".pipe") ? String(document.uri.dropLast(5)) : document.uri
    let target = JSON.string(base + ".swift")
    let start: JSON = ["line": 0, "character": 0]
    return [
      [
        "title": "Export as Swift", "kind": .string(Self.exportKind),
        "edit": [
          "documentChanges": [
            ["kind": "create", "uri": target, "options": ["overwrite": true]],
            [
              "textDocument": ["uri": target, "version": nil],
              "edits": [["range": ["start": start, "end": start], "newText": .string(program)]],
            ],
          ]
        ],
      ]
    ]
  }

  /// The `let` a name at `offset` means: the latest one of the name whose statement ends before it
  /// (in `let xs = xs | …` the `xs` after `=` is the one before), or the one it names.
  static func binding(
    _ name: String, in document: Document, usedAt offset: Int
  ) -> (name: Identifier, statement: SourceRange)? {
    bindings(document).last { binding in
      binding.name.name == name
        && (binding.statement.end <= offset
          || (binding.name.range.start <= offset && offset <= binding.name.range.end))
    }
  }

  /// The identifier token at `offset` (touching it on either side), or nil: a word in a comment or
  /// a string is none.
  static func identifier(in document: Document, at offset: Int) -> (text: String, range: SourceRange)? {
    Lexer.tokenize(checked(document)).tokens.first {
      $0.kind == .identifier && $0.range.start <= offset && offset <= $0.range.end
    }.map { ($0.text, $0.range) }
  }

  /// The document's `let` statements: the name and the whole statement.
  static func bindings(_ document: Document) -> [(name: Identifier, statement: SourceRange)] {
    Parser.parse(checked(document), grammar: .pipesh).statements.compactMap { statement in
      guard case .binding(let name, _) = statement.kind else { return nil }
      return (name, statement.range)
    }
  }

  /// Each name written after `channel`, `stream` or `subject`, at its first place.
  static func channels(_ document: Document) -> [(name: String, kind: String, range: SourceRange)] {
    let tokens = Lexer.tokenize(checked(document)).tokens
    var seen: Set<String> = []
    var found: [(name: String, kind: String, range: SourceRange)] = []
    for (word, name) in zip(tokens, tokens.dropFirst())
    where word.kind == .identifier && name.kind == .identifier && ["channel", "stream", "subject"].contains(word.text) {
      guard seen.insert(name.text).inserted else { continue }
      found.append((name.text, word.text, name.range))
    }
    return found
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
