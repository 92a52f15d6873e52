/// A problem found in user input: a message, where it is, and a stable id, made by the static
/// factories in `DiagnosticMessages.swift` and printed by `DiagnosticFormatter`.
public struct Diagnostic: Sendable, Hashable, Error {
  /// How bad it is.
  public enum Severity: String, Sendable {
    /// Nothing of the input runs.
    case error
  }

  public let id: String
  public let severity: Severity
  public let message: String
  public let range: SourceRange
  public let notes: [String]

  public init(id: String, severity: Severity = .error, message: String, range: SourceRange, notes: [String] = []) {
    self.id = id
    self.severity = severity
    self.message = message
    self.range = range
    self.notes = notes
  }

  /// A copy with one more note.
  public func adding(note: String?) -> Diagnostic {
    guard let note else { return self }
    return Diagnostic(id: id, severity: severity, message: message, range: range, notes: notes + [note])
  }
}

/// Renders diagnostics clang/Swift style: `FILE:LINE:COL: error: MESSAGE`, the line, a caret.
public enum DiagnosticFormatter {
  public static func render(_ diagnostic: Diagnostic, in source: SourceFile) -> String {
    let start = source.location(of: diagnostic.range.start)
    var out = ""
    if let name = source.name {
      out += "\(name):\(start.line):\(start.column): "
    }
    out += "\(diagnostic.severity.rawValue): \(diagnostic.message)\n"
    let line = source.lineText(start.line)
    out += line + "\n"
    let end = source.location(of: max(diagnostic.range.start, diagnostic.range.end))
    let lineLength = line.count
    let caretColumn = min(start.column, lineLength + 1)
    var width = end.line == start.line ? end.column - start.column : lineLength - start.column + 1
    width = max(1, min(width, lineLength + 1 - caretColumn + 1))
    out += String(repeating: " ", count: caretColumn - 1) + "^" + String(repeating: "~", count: max(0, width - 1))
    out += "\n"
    for note in diagnostic.notes {
      out += "note: \(note)\n"
    }
    return out
  }

  public static func render(_ diagnostics: [Diagnostic], in source: SourceFile) -> String {
    diagnostics.map { render($0, in: source) }.joined()
  }
}

/// Near-miss suggestions by edit distance, as swift-argument-parser's `UsageGenerator` does.
public enum NameSuggester {
  /// The candidate closest to `name`, if it is close enough to be a likely typo.
  public static func suggestion(for name: String, in candidates: some Sequence<String>) -> String? {
    var best: (String, Int)?
    let limit = max(1, min(3, name.count / 3 + 1))
    for candidate in candidates {
      let distance = editDistance(name.lowercased(), candidate.lowercased())
      if distance <= limit, distance < (best?.1 ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.0
  }

  /// The note "did you mean 'X'?" for the closest candidate, or nil.
  public static func note(for name: String, in candidates: some Sequence<String>) -> String? {
    suggestion(for: name, in: candidates).map { "did you mean '\($0)'?" }
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], twoBack[j - 2] + 1)
        }
      }
      (twoBack, previous, current) = (previous, current, twoBack)
    }
    return previous[b.count]
  }
}
