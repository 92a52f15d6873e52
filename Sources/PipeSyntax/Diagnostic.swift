/// A problem found in user input: a message, where it is, and a stable, typed id (`DiagnosticID`),
/// made by the static factories in `DiagnosticMessages.swift` and printed by `DiagnosticFormatter`.
public struct Diagnostic: Sendable, Hashable, Error {
  /// How bad it is.
  public enum Severity: String, Sendable {
    /// Nothing of the input runs.
    case error
    /// Said, and the work goes on (`--emit-swift` leaves a pipesh-only command as a comment).
    case warning
  }

  public let id: DiagnosticID
  public let severity: Severity
  public let message: String
  public let range: SourceRange
  public let notes: [String]

  public init(
    id: DiagnosticID, severity: Severity = .error, message: String, range: SourceRange, notes: [String] = []
  ) {
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
  /// `decorator` sets apart the severity, the caret and `note:` (the shell colours them on a
  /// terminal); by default they are as they are.
  public static func render(
    _ diagnostic: Diagnostic, in source: SourceFile, decorator: any DiagnosticDecorator = PlainDiagnosticDecorator()
  ) -> String {
    let start = source.location(of: diagnostic.range.start)
    var out = ""
    if let name = source.name {
      out += "\(visible(name)):\(start.line):\(start.column): "
    }
    let severity = diagnostic.severity.rawValue + ":"
    out += decorator.decorate(severity: severity, diagnostic.severity)
    out += " \(visible(diagnostic.message))\n"
    var line = Array(source.lineText(start.line))
    let end = source.location(of: max(diagnostic.range.start, diagnostic.range.end))
    var caretColumn = min(start.column, line.count + 1)
    var width = end.line == start.line ? end.column - start.column : line.count - start.column + 1
    // A very long line is shown around the caret only.
    var lead = ""
    if line.count > maximumLineShown {
      let from = max(0, min(caretColumn - 1 - maximumLineShown / 2, line.count - maximumLineShown))
      let to = min(line.count, from + maximumLineShown)
      lead = from > 0 ? "…" : ""
      line = Array(line[from..<to]) + (to < line.count ? ["…"] : [])
      caretColumn -= from
    }
    out += lead + visible(String(line)) + "\n"
    width = max(1, min(width, line.count + 1 - caretColumn + 1))
    // Columns of the line as shown: a control character is shown escaped, several columns wide.
    let before = visible(String(line[..<(caretColumn - 1)])).count
    let under = visible(String(line[(caretColumn - 1)..<min(line.count, caretColumn - 1 + width)])).count
    out +=
      String(repeating: " ", count: lead.count + before)
      + decorator.decorate(caret: "^" + String(repeating: "~", count: max(0, max(under, 1) - 1)))
    out += "\n"
    for note in diagnostic.notes {
      out += decorator.decorate(noteLabel: "note:") + " \(visible(note))\n"
    }
    return out
  }

  /// The most columns of a source line a diagnostic shows.
  static let maximumLineShown = 120

  /// `text` with control characters (escape, bell, NUL, …) shown as `\u{1B}`, so a script cannot
  /// drive the terminal through an error message.
  public static func visible(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) {
        out += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  public static func render(
    _ diagnostics: [Diagnostic], in source: SourceFile, decorator: any DiagnosticDecorator = PlainDiagnosticDecorator()
  ) -> String {
    diagnostics.map { render($0, in: source, decorator: decorator) }.joined()
  }
}

/// Near-miss suggestions by edit distance, as swift-argument-parser's `UsageGenerator` does.
public enum NameSuggester {
  /// The candidate closest to `name`, if it is close enough to be a likely typo.
  public static func suggestion(for name: String, in candidates: some Sequence<String>) -> String? {
    var best: (String, Int)?
    // One edit in a short name, two in a long one: more would suggest unrelated names.
    let limit = max(1, min(2, name.count / 3))
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
