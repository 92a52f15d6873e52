/// What the server sends a page, each as one JSON text frame.
public enum ServerMessage: Equatable, Sendable {
  /// A run's outcome: pipesh's exit status, the HTML fragment it printed, and the run's milliseconds.
  case result(id: Int, status: Int, html: String, milliseconds: Int)
  /// The Swift export of a script, its exported test (nil when there is none) and what pipesh said.
  case export(id: Int, swift: String, test: String?, message: String)
  /// Something the server could not do with a message; the connection stays usable.
  case error(String)
  /// An event of the presented session (present mode).
  case present(PresentEvent)

  /// The frame's text.
  public var json: String {
    switch self {
    case .result(let id, let status, let html, let milliseconds):
      JSON.object([
        ("type", .string("result")), ("id", .number(id)), ("status", .number(status)), ("html", .string(html)),
        ("ms", .number(milliseconds)),
      ])
    case .export(let id, let swift, let test, let message):
      JSON.object([
        ("type", .string("export")), ("id", .number(id)), ("swift", .string(swift)),
        ("test", test.map(JSON.string) ?? .null), ("message", .string(message)),
      ])
    case .error(let message):
      JSON.object([("type", .string("error")), ("message", .string(message))])
    case .present(let event):
      JSON.object([("type", .string("present"))] + event.fields)
    }
  }
}

/// A JSON value as the server writes it: keys in the order given, strings escaped per RFC 8259.
public indirect enum JSON: Equatable, Sendable {
  case string(String)
  case number(Int)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.text == rhs.text }

  /// The value's JSON text.
  public var text: String {
    var output = ""
    write(to: &output)
    return output
  }

  static func object(_ fields: [(String, JSON)]) -> String { JSON.object(fields).text }

  func write(to output: inout String) {
    switch self {
    case .string(let string): Self.quote(string, to: &output)
    case .number(let number): output += String(number)
    case .bool(let bool): output += bool ? "true" : "false"
    case .null: output += "null"
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(to: &output)
      }
      output += "]"
    case .object(let fields):
      output += "{"
      for (index, (key, value)) in fields.enumerated() {
        if index > 0 { output += "," }
        Self.quote(key, to: &output)
        output += ":"
        value.write(to: &output)
      }
      output += "}"
    }
  }

  static func quote(_ string: String, to output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{2028}": output += "\\u2028"
      case "\u{2029}": output += "\\u2029"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }
}
