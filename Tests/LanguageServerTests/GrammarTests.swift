import Foundation
import LanguageServer
import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// The editor extension's TextMate grammar: made from the catalogue, and read by a small
/// tokeniser of the TextMate rules it uses (match, begin/end, captures, include) over every
/// Example, against pipesh's own lexer.
@Suite("the TextMate grammar")
struct GrammarTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let file = root.appendingPathComponent("Editors/vscode/syntaxes/pipe.tmLanguage.json")

  /// The file in the extension is the catalogue's grammar. `PIPESH_WRITE_GRAMMAR=1 swift test
  /// --filter GrammarTests` writes it after the catalogue changed.
  @Test func theExtensionsGrammarIsTheCataloguesGrammar() throws {
    if ProcessInfo.processInfo.environment["PIPESH_WRITE_GRAMMAR"] == "1" {
      try TextMateGrammar.text.write(to: Self.file, atomically: true, encoding: .utf8)
    }
    let written = try String(contentsOf: Self.file, encoding: .utf8)
    #expect(written == TextMateGrammar.text, "the grammar is not the catalogue's: PIPESH_WRITE_GRAMMAR=1 rewrites it")
  }

  /// Every string, number, duration, `$0`, operator and command word and comment of every
  /// Example gets the grammar's scope for it.
  @Test func everyExampleIsColouredAsPipeshReadsIt() throws {
    let grammar = try #require(JSON.parse(Array(TextMateGrammar.text.utf8)))
    let tokeniser = try Tokeniser(grammar)
    let examples = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("Examples").path
    )
    .filter { $0.hasSuffix(".pipe") }.sorted()
    #expect(examples.count > 30)
    let operators = Set(OperatorKind.signatures.names + OperatorKind.aliases.keys)
    let commands = Set(Commands.table.names)
    var checked = 0
    for name in examples {
      let text = try String(contentsOf: Self.root.appendingPathComponent("Examples/\(name)"), encoding: .utf8)
      let scopes = try tokeniser.scopes(text)
      let source = SourceFile(name: name, text: text)
      let tokens = Lexer.tokenize(source).tokens
      for (index, token) in tokens.enumerated() {
        let expected: String
        let previous = index > 0 ? tokens[index - 1] : nil
        let next = index + 1 < tokens.count ? tokens[index + 1] : nil
        let startsStatement = previous == nil || previous?.kind == .newline || previous?.isPunctuation(";") == true
        switch token.kind {
        case .string: expected = "string.quoted"
        case .duration: expected = "constant.numeric.duration"
        case .integer, .float: expected = "constant.numeric"
        case .dollar: expected = "variable.parameter"
        case .identifier where startsStatement && commands.contains(token.text): expected = "keyword.control.command"
        case .identifier where operators.contains(token.text) && next?.isPunctuation(":") != true:
          expected = "support.function.operator"
        default: continue
        }
        let location = source.location(of: token.range.start)
        let scope = scopes[location.line - 1][utf16Column(source, token.range.start)]
        #expect(scope.contains(expected), "\(name):\(location.line):\(location.column): '\(token.text)' is \(scope)")
        checked += 1
      }
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
        let column = line.utf16.count - line.drop { $0 == " " }.utf16.count
        #expect(
          scopes[number][column].contains("comment.line"), "\(name):\(number + 1): a comment is \(scopes[number])")
        checked += 1
      }
    }
    #expect(checked > 1000)
  }

  func utf16Column(_ source: SourceFile, _ offset: Int) -> Int {
    let location = source.location(of: offset)
    let line = source.lineText(location.line)
    return String(line.prefix(location.column - 1)).utf16.count
  }
}

/// A tokeniser of the TextMate rules the grammar uses, on NSRegularExpression (ICU's syntax is
/// Oniguruma's for these patterns): each line's scope names, one string per UTF-16 unit.
struct Tokeniser {
  struct Context {
    let end: NSRegularExpression
    let name: String?
    let patterns: [JSON]
  }

  let grammar: JSON

  init(_ grammar: JSON) throws {
    self.grammar = grammar
  }

  func regex(_ pattern: String) throws -> NSRegularExpression {
    try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
  }

  /// `include`s and pattern lists replaced by the rules they name.
  func rules(_ patterns: [JSON], depth: Int = 0) -> [JSON] {
    patterns.flatMap { pattern -> [JSON] in
      guard depth < 8 else { return [] }
      if let include = pattern["include"]?.string {
        let target = include == "$self" ? grammar : grammar["repository"]?[String(include.dropFirst())]
        guard let target else { return [] }
        if target["match"] != nil || target["begin"] != nil { return [target] }
        return rules(target["patterns"]?.array ?? [], depth: depth + 1)
      }
      if pattern["match"] == nil, pattern["begin"] == nil {
        return rules(pattern["patterns"]?.array ?? [], depth: depth + 1)
      }
      return [pattern]
    }
  }

  func scopes(_ text: String) throws -> [[String]] {
    var stack: [Context] = []
    var result: [[String]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let string = line as NSString
      var scopes = [String](repeating: "", count: string.length + 1)
      func paint(_ range: NSRange, _ names: [String?]) {
        let name = names.compactMap { $0 }.joined(separator: " ")
        for index in range.location..<(range.location + range.length) { scopes[index] = name }
      }
      var position = 0
      while position <= string.length {
        let outer = stack.map(\.name)
        paint(NSRange(location: position, length: string.length + 1 - position), outer)
        var best: (match: NSTextCheckingResult, rule: JSON?)?
        let searched = NSRange(location: position, length: string.length - position)
        if let end = stack.last?.end.firstMatch(in: line, range: searched) { best = (end, nil) }
        for rule in rules(stack.last?.patterns ?? grammar["patterns"]?.array ?? []) {
          guard let pattern = (rule["match"] ?? rule["begin"])?.string,
            let match = try regex(pattern).firstMatch(in: line, range: searched)
          else { continue }
          if best == nil || match.range.location < (best?.match.range.location ?? 0) { best = (match, rule) }
        }
        guard let (match, rule) = best else { break }
        guard let rule else {
          paint(match.range, outer)
          stack.removeLast()
          position = max(match.range.location + match.range.length, position + (match.range.length == 0 ? 1 : 0))
          continue
        }
        let name = rule["name"]?.string
        paint(match.range, outer + [name])
        let captures = rule["captures"] ?? rule["beginCaptures"]
        for group in 1..<match.numberOfRanges where match.range(at: group).location != NSNotFound {
          if let captured = captures?[String(group)]?["name"]?.string {
            paint(match.range(at: group), outer + [name, captured])
          }
        }
        if let end = rule["end"]?.string {
          stack.append(Context(end: try regex(end), name: name, patterns: rule["patterns"]?.array ?? []))
        }
        position = match.range.location + max(match.range.length, 1)
      }
      result.append(scopes)
    }
    return result
  }
}
