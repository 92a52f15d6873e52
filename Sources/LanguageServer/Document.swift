import PipeSyntax

/// How the client counts a line's characters: UTF-16 code units (the protocol's default, and what
/// VS Code does) or UTF-8 bytes, when the client offers it and the server picks it.
public enum PositionEncoding: String, Sendable {
  case utf16 = "utf-16"
  case utf8 = "utf-8"
}

/// A position the client sent that is not in the document.
struct PositionOutOfRange: Error {
  let line: Int
  let character: Int
  let lines: Int

  var message: String {
    character < 0
      ? "character \(character) is no position: characters count from 0"
      : "line \(line) is not in the document (it has \(lines) lines, from 0)"
  }
}

/// An open `.pipe` file: its text as the client last sent it, and the conversions between the
/// protocol's positions (line, character in `encoding`) and the byte offsets pipesh's diagnostics
/// and syntax use.
struct Document {
  let uri: String
  private(set) var version: Int
  private(set) var source: SourceFile
  private var bytes: [UInt8]
  /// The byte offset at which each line starts.
  private var lineStarts: [Int]

  init(uri: String, version: Int, text: String) {
    self.uri = uri
    self.version = version
    source = SourceFile(name: Self.name(of: uri), text: text)
    bytes = []
    lineStarts = []
    reindex()
  }

  var text: String { source.text }

  /// The file's name as diagnostics say it: the path of a `file:` URI, else the URI.
  static func name(of uri: String) -> String {
    guard uri.hasPrefix("file://") else { return uri }
    return String(uri.dropFirst(7)).removingPercentEncoding
  }

  private mutating func reindex() {
    bytes = Array(source.text.utf8)
    lineStarts = [0]
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
  }

  /// Replaces the whole text, or the text in `range`, and takes the client's new version.
  mutating func change(_ text: String, in range: (start: Int, end: Int)?, version: Int) {
    self.version = version
    var new = text
    if let range {
      new =
        String(decoding: bytes[..<range.start], as: UTF8.self) + text
        + String(decoding: bytes[range.end...], as: UTF8.self)
    }
    source = SourceFile(name: source.name, text: new)
    reindex()
  }

  /// The byte offset of a position; a character past the line's end is its end (as the protocol
  /// says), a line past the last is an error.
  func offset(line: Int, character: Int, _ encoding: PositionEncoding) -> Result<Int, PositionOutOfRange> {
    guard line >= 0, line < lineStarts.count, character >= 0 else {
      return .failure(PositionOutOfRange(line: line, character: character, lines: lineStarts.count))
    }
    let start = lineStarts[line]
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
    if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    if encoding == .utf8 {
      // Not inside a scalar: back to the start of the one it cuts.
      var offset = start + min(character, end - start)
      while offset > start, offset < end, bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
      return .success(offset)
    }
    var units = 0
    var offset = start
    for scalar in String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars {
      let width = UTF16.width(scalar)
      if units + width > character { break }
      units += width
      offset += UTF8.width(scalar)
    }
    return .success(offset)
  }

  /// The position of a byte offset.
  func position(of offset: Int, _ encoding: PositionEncoding) -> JSON {
    let offset = max(0, min(offset, bytes.count))
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    let prefix = bytes[lineStarts[low]..<offset]
    let character =
      encoding == .utf8 ? prefix.count : String(decoding: prefix, as: UTF8.self).utf16.count
    return ["line": .int(low), "character": .int(character)]
  }

  func range(_ range: SourceRange, _ encoding: PositionEncoding) -> JSON {
    ["start": position(of: range.start, encoding), "end": position(of: range.end, encoding)]
  }

  /// The whole text's range.
  func wholeRange(_ encoding: PositionEncoding) -> JSON {
    range(SourceRange(0, bytes.count), encoding)
  }

  /// The byte offset of an edit's position: as `offset`, but a line past the last is the
  /// document's end (an edit deleting to the end may name the line after it).
  func editOffset(line: Int, character: Int, _ encoding: PositionEncoding) -> Int? {
    if line >= lineStarts.count, character >= 0 { return bytes.count }
    return try? offset(line: line, character: character, encoding).get()
  }

  /// The statement's text before `offset`: its line up to `offset`, after the lines before it
  /// that it continues as the lexer reads them (a line left unfinished: ending in `|`, a comment
  /// after it, a bracket open, or a backslash), blank and comment lines between them passed over;
  /// joined by spaces, comments taken out.
  func statementBefore(_ offset: Int) -> String {
    let index = (lineStarts.lastIndex { $0 <= offset } ?? 0)
    var text = String(
      decoding: bytes[lineStarts[index]..<max(lineStarts[index], min(offset, bytes.count))], as: UTF8.self)
    var previous = index - 1
    while previous >= 0 {
      let line = String(decoding: bytes[lineStarts[previous]..<(lineStarts[previous + 1] - 1)], as: UTF8.self)
      let code = Self.withoutComment(line)
      if code.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
        previous -= 1
        continue
      }
      let backslash = code.hasSuffix("\\")
      guard backslash || Lexer.needsContinuation(line) else { break }
      text = String(backslash ? code.dropLast() : Substring(code)) + " " + text
      previous -= 1
    }
    return text
  }

  /// A line without its comment (a `#` outside quotes, and what follows it).
  static func withoutComment(_ line: String) -> String {
    var quoted = false
    var escaped = false
    var kept = ""
    for character in line {
      if quoted {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          quoted = false
        }
      } else if character == "\"" {
        quoted = true
      } else if character == "#" {
        break
      }
      kept.append(character)
    }
    return kept
  }
}

extension String {
  /// `%XX` sequences decoded (a `file:` URI's path); one that is not valid stays as written.
  fileprivate var removingPercentEncoding: String {
    var out: [UInt8] = []
    let bytes = Array(utf8)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
      {
        out.append(value)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
