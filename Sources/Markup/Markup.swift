/// Text made safe to stand in XML or HTML: the one escaper of pipesh's pictures, pages and test
/// reports, and of `pipesh serve`'s notes. Each use names what it escapes (`Escaping`).
public enum Markup {
  /// What an escaping writes as a reference besides `&`, `<` and `>`, and what it does with the
  /// characters XML 1.0 cannot hold.
  public struct Escaping: Sendable {
    /// Which quotes become `&quot;` and `&apos;`.
    public enum Quotes: Sendable {
      /// None: text between elements.
      case none
      /// `"`: an HTML attribute in double quotes.
      case double
      /// `"` and `'`: text that may stand in an attribute in either quotes.
      case both
    }

    /// What becomes of a control character (below U+0020 other than tab).
    public enum ControlCharacters: Sendable {
      /// Kept as it is (HTML, which a browser shows as text).
      case kept
      /// Written as pipesh's diagnostics write it, `\u{1B}`, line ends too: what a picture shows.
      case written
      /// Line ends kept; any other, and U+FFFE and U+FFFF, replaced by U+FFFD, as XML 1.0 cannot
      /// hold them at all.
      case replaced
    }

    public var quotes: Quotes
    public var controlCharacters: ControlCharacters
    /// Characters written as numeric references (`&#10;`), where a parser would otherwise change
    /// them (a line end in an attribute becomes a space; `\r` a line end).
    public var references: Set<Unicode.Scalar>

    public init(quotes: Quotes, controlCharacters: ControlCharacters, references: Set<Unicode.Scalar> = []) {
      self.quotes = quotes
      self.controlCharacters = controlCharacters
      self.references = references
    }

    /// An HTML fragment's text or double-quoted attribute (`pipesh serve`'s notes).
    public static let html = Escaping(quotes: .double, controlCharacters: .kept)
    /// SVG and the HTML pages around it, text or attribute: control characters shown.
    public static let picture = Escaping(quotes: .both, controlCharacters: .written)
    /// An XML element's text (JUnit reports): `\r` kept through the parser's line-end handling.
    public static let xmlText = Escaping(quotes: .none, controlCharacters: .replaced, references: ["\r"])
    /// An XML attribute's value (JUnit reports): quotes and every line end and tab as references.
    public static let xmlAttribute = Escaping(
      quotes: .both, controlCharacters: .replaced, references: ["\t", "\n", "\r"])
  }

  /// `text` with `&`, `<` and `>` written as references, and what `escaping` names besides.
  /// Scalar by scalar: a combining mark after `<` or `"` does not hide it.
  public static func escaped(_ text: String, _ escaping: Escaping) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if escaping.references.contains(scalar) {
        escaped += "&#\(scalar.value);"
        continue
      }
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"" where escaping.quotes != .none: escaped += "&quot;"
      case "'" where escaping.quotes == .both: escaped += "&apos;"
      case "\t": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        control(scalar, escaping.controlCharacters, to: &escaped)
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  private static func control(
    _ scalar: Unicode.Scalar, _ handling: Escaping.ControlCharacters, to escaped: inout String
  ) {
    let isControl = scalar.value < 0x20
    switch handling {
    case .written where isControl:
      escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    case .replaced where scalar != "\n" && scalar != "\r":
      escaped += "\u{FFFD}"
    case .kept, .written, .replaced:
      escaped.unicodeScalars.append(scalar)
    }
  }
}
