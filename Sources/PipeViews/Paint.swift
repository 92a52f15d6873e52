import PipeSyntax
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Colour on a terminal (ANSI SGR sequences): only where the text goes to a terminal, never when
/// `NO_COLOR` is set to anything but the empty string (no-color.org) or after `--no-color`.
/// Shape and words carry every meaning; colour only repeats it.
package enum Paint {
  package enum Colour: String, Sendable {
    case red = "31"
    case green = "32"
    case yellow = "33"
    case cyan = "36"
  }

  private static let turnedOff = Atomic<Bool>(false)

  /// `--no-color`: nothing is coloured from now on.
  package static func turnOff() {
    turnedOff.store(true, ordering: .relaxed)
  }

  /// Whether text written to `descriptor` (1 or 2) is coloured.
  package static func isOn(for descriptor: Int32) -> Bool {
    guard !turnedOff.load(ordering: .relaxed) else { return false }
    if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
    return isatty(descriptor) == 1
  }

  /// `text` in `colour` (bold with `bold`), or as it is when `on` is false.
  package static func paint(_ text: String, _ colour: Colour, bold: Bool = false, on: Bool) -> String {
    guard on, !text.isEmpty else { return text }
    return "\u{1B}[" + (bold ? "1;" : "") + colour.rawValue + "m" + text + "\u{1B}[0m"
  }

  /// A job's or node's state word in the colour of how it ended: finished green, failed red,
  /// cancelled yellow; any other text as it is.
  package static func state(_ text: String, on: Bool) -> String {
    let word = text.prefix(while: { $0.isLetter })
    switch word {
    case "finished": return paint(String(word), .green, on: on) + text.dropFirst(word.count)
    case "failed": return paint(String(word), .red, on: on) + text.dropFirst(word.count)
    case "cancelled": return paint(String(word), .yellow, on: on) + text.dropFirst(word.count)
    default: return text
    }
  }
}

package extension Paint {
  /// How diagnostics written to `descriptor` (1 or 2) look: coloured where `isOn(for:)`, else as
  /// they are.
  static func diagnostics(for descriptor: Int32) -> any DiagnosticDecorator {
    isOn(for: descriptor) ? TerminalDiagnosticDecorator() : PlainDiagnosticDecorator()
  }
}

/// Diagnostics on a terminal, bold: `error:` red, `warning:` yellow, the caret green, `note:` cyan.
package struct TerminalDiagnosticDecorator: DiagnosticDecorator {
  package func decorate(severity text: String, _ severity: Diagnostic.Severity) -> String {
    Paint.paint(text, severity == .error ? .red : .yellow, bold: true, on: true)
  }

  package func decorate(caret text: String) -> String { Paint.paint(text, .green, bold: true, on: true) }

  package func decorate(noteLabel text: String) -> String { Paint.paint(text, .cyan, bold: true, on: true) }
}
