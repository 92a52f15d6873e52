import PipeSyntax

/// The JSON a trace file holds: no fractions or exponents (times are whole nanoseconds).
public enum JSONValue: Equatable, Sendable {
  case string(String)
  case integer(Int)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([String: JSONValue])
}

/// A strict reader of one JSON object on one line (RFC 8259, numbers whole), with the byte offset
/// of the first thing wrong.
public struct JSONReader {
  public let bytes: [UInt8]
  public var position: Int
  public let end: Int
  /// Deeper nesting is refused, not recursed into.
  static let maximumDepth = 32

  public init(bytes: [UInt8], at start: Int, end: Int) {
    self.bytes = bytes
    self.position = start
    self.end = end
  }

  public mutating func objectLine() -> Result<[String: JSONValue], Diagnostic> {
    do throws(Diagnostic) {
      skipSpace()
      guard peek == UInt8(ascii: "{") else { throw fail("expected a JSON object ({…}) on this line") }
      guard case .object(let object) = try value(depth: 0) else { throw fail("expected a JSON object") }
      skipSpace()
      guard position == end else { throw fail("expected the line to end after its object") }
      return .success(object)
    } catch {
      return .failure(error)
    }
  }

  private var peek: UInt8? { position < end ? bytes[position] : nil }

  private func fail(_ message: String) -> Diagnostic {
    TraceFile.problem(message, at: position, position)
  }

  private mutating func skipSpace() {
    while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0D { position += 1 }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(Diagnostic) {
    skipSpace()
    guard peek == byte else { throw fail("expected \(what)") }
    position += 1
  }

  private mutating func value(depth: Int) throws(Diagnostic) -> JSONValue {
    guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
    skipSpace()
    guard let byte = peek else { throw fail("expected a value") }
    switch byte {
    case UInt8(ascii: "{"):
      position += 1
      var object: [String: JSONValue] = [:]
      skipSpace()
      if peek == UInt8(ascii: "}") {
        position += 1
        return .object(object)
      }
      repeat {
        skipSpace()
        let keyStart = position
        let key = try string()
        guard object[key] == nil else {
          position = keyStart
          throw fail("\"\(key)\" is given twice")
        }
        try expect(UInt8(ascii: ":"), "':' after a name")
        object[key] = try value(depth: depth + 1)
        skipSpace()
      } while try more(closing: UInt8(ascii: "}"))
      return .object(object)
    case UInt8(ascii: "["):
      position += 1
      var items: [JSONValue] = []
      skipSpace()
      if peek == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      }
      repeat {
        items.append(try value(depth: depth + 1))
        skipSpace()
      } while try more(closing: UInt8(ascii: "]"))
      return .array(items)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
    default:
      for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] {
        let word = Array(word.utf8)
        if position + word.count <= end, Array(bytes[position..<position + word.count]) == word {
          position += word.count
          return value
        }
      }
      throw fail("expected a value (a string, a whole number, true, false, null, […] or {…})")
    }
  }

  /// After an item: true at `,`, false at the closing bracket.
  private mutating func more(closing: UInt8) throws(Diagnostic) -> Bool {
    guard let byte = peek else { throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'") }
    position += 1
    if byte == UInt8(ascii: ",") { return true }
    if byte == closing { return false }
    position -= 1
    throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
  }

  private mutating func integer() throws(Diagnostic) -> Int {
    let start = position
    if peek == UInt8(ascii: "-") { position += 1 }
    let digitsStart = position
    while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
    guard position > digitsStart else { throw fail("expected a digit") }
    if bytes[digitsStart] == UInt8(ascii: "0"), position - digitsStart > 1 {
      position = digitsStart
      throw fail("a number does not start with 0")
    }
    if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      throw fail("expected a whole number (times are whole nanoseconds)")
    }
    guard let value = Int(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      position = start
      throw fail("the number is too large")
    }
    return value
  }

  private mutating func string() throws(Diagnostic) -> String {
    guard peek == UInt8(ascii: "\"") else { throw fail("expected a string (\"…\")") }
    position += 1
    // Plain runs are appended as whole strings: a scalar at a time, a value of megabytes took
    // seconds.
    var text = ""
    var plainStart = position
    func flush(_ reader: JSONReader) {
      text += String(decoding: reader.bytes[plainStart..<reader.position], as: UTF8.self)
    }
    while true {
      guard let byte = peek else { throw fail("the string does not end on this line (a '\"' is missing)") }
      if byte == UInt8(ascii: "\"") {
        flush(self)
        position += 1
        return text
      }
      if byte < 0x20 { throw fail("a control character in a string must be escaped (\\n, \\u0001)") }
      guard byte == UInt8(ascii: "\\") else {
        position = plainEnd(from: position + 1)
        continue
      }
      flush(self)
      position += 1
      guard let escaped = peek else { throw fail("expected an escape after '\\'") }
      position += 1
      switch escaped {
      case UInt8(ascii: "\""): text.append("\"")
      case UInt8(ascii: "\\"): text.append("\\")
      case UInt8(ascii: "/"): text.append("/")
      case UInt8(ascii: "b"): text.append("\u{08}")
      case UInt8(ascii: "f"): text.append("\u{0C}")
      case UInt8(ascii: "n"): text.append("\n")
      case UInt8(ascii: "r"): text.append("\r")
      case UInt8(ascii: "t"): text.append("\t")
      case UInt8(ascii: "u"): text.unicodeScalars.append(try unicodeEscape())
      default:
        position -= 1
        throw fail("unknown escape '\\\(Character(Unicode.Scalar(escaped)))'")
      }
      plainStart = position
    }
  }

  /// Where the run of plain bytes of a string that starts at `start` ends: at a quote, a backslash,
  /// a control character or the line's end. One pass over a buffer, not a call per byte: a trace's
  /// values can be megabytes long.
  private func plainEnd(from start: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      var index = start
      while index < end {
        let byte = buffer[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        index += 1
      }
      return index
    }
  }

  /// `\uXXXX` after the `u`, a surrogate pair as two of them.
  private mutating func unicodeEscape() throws(Diagnostic) -> Unicode.Scalar {
    let high = try hexQuad()
    guard (0xD800...0xDBFF).contains(high) else {
      guard let scalar = Unicode.Scalar(high) else { throw fail("\\u\(String(high, radix: 16)) is half of a pair") }
      return scalar
    }
    guard position + 1 < end, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
      throw fail("expected the second half of a \\u surrogate pair")
    }
    position += 2
    let low = try hexQuad()
    guard (0xDC00...0xDFFF).contains(low),
      let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    else { throw fail("expected the second half of a \\u surrogate pair") }
    return scalar
  }

  private mutating func hexQuad() throws(Diagnostic) -> UInt32 {
    guard position + 4 <= end,
      let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
      bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
    else { throw fail("expected four hex digits after \\u") }
    position += 4
    return value
  }
}
