/// Every diagnostic pipesh reports, one static factory each, with a stable id.
public enum DiagnosticMessages {
  // MARK: lexical

  public static func unexpectedCharacter(_ text: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .unexpectedCharacter, message: "unexpected character '\(text)'", range: range)
  }

  /// `@MainActor`: Swift's attribute, which pipesh has no place for; `help` knows the Swift words.
  public static func attribute(_ text: String, _ range: SourceRange) -> Diagnostic {
    let name = text.dropFirst()
    return Diagnostic(
      id: .unexpectedCharacter, message: "'\(text)' is a Swift attribute: pipesh has none", range: range,
      notes: ["'help \(name)' says what pipesh has for Swift's words (without the '@')"])
  }

  public static func invalidDollar(_ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .invalidDollar, message: "'$' must be followed by a number", range: range,
      notes: ["closure arguments are written $0 and $1"])
  }

  public static func unknownUnit(_ unit: String, in text: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .unknownUnit, message: "unknown duration unit '\(unit)' in '\(text)'", range: range,
      notes: ["units are ns, us, ms, s, m and h, as in 250ms or 1.5s"])
  }

  public static func unterminatedString(_ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .unterminatedString, message: "unterminated string literal", range: range,
      notes: ["close the string with '\"' on the same line"])
  }

  public static func invalidEscape(_ text: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .invalidEscape, message: "invalid escape sequence '\(text)' in string", range: range,
      notes: ["strings know \\n, \\t, \\\\, \\\" and \\(…) inside closures"])
  }

  public static func leadingDot(_ text: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .invalidNumber, message: "a number starts with a digit: write 0\(text)", range: range)
  }

  /// `timer(1)`: how to write it. A Combine user's `print("x")` and `collect(2)` are pipesh's
  /// `tap "x"` and `chunks 2` (pipesh's `print` and `collect` are other things), and it says so.
  public static func notACombinator(
    _ name: String, arguments: [String], _ range: SourceRange, combinators: String
  ) -> Diagnostic {
    let notes = ["only the combinators \(combinators) take parentheses"]
    if !arguments.isEmpty, let homonym = combineHomonyms[name] {
      let written = ([homonym.word] + arguments).joined(separator: " ")
      return Diagnostic(
        id: .notACombinator, message: "'\(name)(…)' is Combine's spelling: write '\(written)'", range: range,
        notes: [homonym.note] + notes)
    }
    let written = ([name] + arguments).joined(separator: " ")
    return Diagnostic(
      id: .notACombinator, message: "'\(name)' takes its arguments without parentheses: write '\(written)'",
      range: range, notes: notes)
  }

  /// pipesh's words that Combine spells the same with another meaning when given arguments.
  static let combineHomonyms = [
    "print": (
      word: "tap",
      note: "Combine's print(\"x\") logs each event and passes the elements on, as pipesh's tap does; "
        + "pipesh's print is a sink that ends the pipeline"
    ),
    "collect": (
      word: "chunks",
      note: "Combine's collect(N) emits arrays of N elements, as pipesh's chunks N does; "
        + "pipesh's collect gathers them all, as Combine's collect() does"
    ),
  ]

  public static func invalidNumber(_ text: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .invalidNumber, message: "'\(text)' is not a valid number", range: range,
      notes: ["integers are 64-bit: from -9223372036854775808 to 9223372036854775807"])
  }

  public static func durationOutOfRange(_ text: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .durationOutOfRange, message: "duration '\(text)' is too long", range: range,
      notes: ["durations are at most 1000000000s (about 31 years)"])
  }

  // MARK: syntax

  public static func nestingTooDeep(_ limit: Int, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .nestingTooDeep, message: "this is nested too deeply", range: range,
      notes: [
        "brackets, closures, string interpolations, operators and unary operators nest at most \(limit) levels "
          + "in one statement: write it with fewer levels, or split it into stages"
      ])
  }

  public static func expected(_ what: String, found: Token) -> Diagnostic {
    Diagnostic(id: .expected, message: "expected \(what), found \(describe(found))", range: found.range)
  }

  public static func unbalanced(_ open: String, at range: SourceRange, found: Token) -> Diagnostic {
    let close = ["(": ")", "[": "]", "{": "}"][open] ?? "?"
    return Diagnostic(
      id: .unbalancedBracket, message: "expected '\(close)' to match this '\(open)'", range: range,
      notes: ["found \(describe(found)) instead"])
  }

  public static func unexpectedClosing(_ token: Token) -> Diagnostic {
    Diagnostic(
      id: .unbalancedBracket, message: "unexpected '\(token.text)' with no matching opening bracket",
      range: token.range, notes: ["remove it, or add the opening bracket before it"])
  }

  public static func unexpectedToken(_ token: Token, after what: String) -> Diagnostic {
    Diagnostic(
      id: .unexpectedToken, message: "unexpected \(describe(token)) \(what)", range: token.range,
      notes: ["stages are separated by '|' and statements by ';' or a new line"])
  }

  /// `send c 1 &`: only a pipeline runs in the background. `note` is the command's own word on it
  /// (`Grammar.backgroundNotes`).
  static func backgroundCommand(_ token: Token, command: String, note: String?) -> Diagnostic {
    let note = note ?? "run it without '&'; only a pipeline runs as a background job"
    return Diagnostic(
      id: .unexpectedToken, message: "'&' after the command '\(command)': a command runs in the foreground",
      range: token.range, notes: [note])
  }

  public static func emptyClosure(_ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .badClosure, message: "empty closure", range: range,
      notes: ["write an expression using $0, as in { $0 * 2 }"])
  }

  public static func interpolationOutsideClosure(_ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .badInterpolation, message: "string interpolation is only allowed inside closures", range: range,
      notes: ["use it in a closure, as in map { \"v=\\($0)\" }"])
  }

  static func describe(_ token: Token) -> String {
    switch token.kind {
    case .end: "end of input"
    case .newline: "end of line"
    case .string: "string \"\(token.text)\""
    default: "'\(token.text)'"
    }
  }
}
