/// What of a rendered diagnostic a view may set apart, as swift-syntax's `DiagnosticDecorator`
/// does: the formatter says which part a piece of text is; how it looks (colour on a terminal) is
/// decided above the syntax layer, by the shell.
public protocol DiagnosticDecorator: Sendable {
  /// `error:` or `warning:`, of a diagnostic of `severity`.
  func decorate(severity text: String, _ severity: Diagnostic.Severity) -> String
  /// The caret and tildes under the diagnostic's range.
  func decorate(caret text: String) -> String
  /// `note:` before a note.
  func decorate(noteLabel text: String) -> String
}

/// Every part as it is: what a file, a pipe and a test read.
public struct PlainDiagnosticDecorator: DiagnosticDecorator {
  public init() {}
  public func decorate(severity text: String, _ severity: Diagnostic.Severity) -> String { text }
  public func decorate(caret text: String) -> String { text }
  public func decorate(noteLabel text: String) -> String { text }
}
