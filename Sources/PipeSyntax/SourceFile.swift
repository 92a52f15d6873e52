/// A text being parsed: a script file, a `-c` argument, or one line typed at the prompt.
public struct SourceFile: Sendable {
  /// The name shown before `:LINE:COL:` in diagnostics, or nil where no prefix is shown (the shell).
  public let name: String?
  public let text: String
  let bytes: [UInt8]
  /// Byte offset at which each line starts.
  let lineStarts: [Int]

  public init(name: String?, text: String) {
    self.name = name
    self.text = text
    self.bytes = Array(text.utf8)
    var starts = [0]
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(index + 1)
    }
    self.lineStarts = starts
  }

  /// The 1-based line and column of a byte offset.
  public func location(of offset: Int) -> SourceLocation {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    let column = String(decoding: bytes[lineStarts[low]..<min(offset, bytes.count)], as: UTF8.self).count + 1
    return SourceLocation(offset: offset, line: low + 1, column: column)
  }

  /// The text of a line, without its newline.
  public func lineText(_ line: Int) -> String {
    guard line >= 1, line <= lineStarts.count else { return "" }
    let start = lineStarts[line - 1]
    var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
    if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
  }

  /// The source text of a range.
  public func text(of range: SourceRange) -> String {
    let start = max(0, min(range.start, bytes.count))
    let end = max(start, min(range.end, bytes.count))
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The text of `range` as views show it (`jobs`, `inspect`, `trace`, `draw`'s labels), its
  /// control characters made visible (`showingControlCharacters`).
  public func displayText(of range: SourceRange) -> String {
    text(of: range).showingControlCharacters
  }
}

/// A point in a source file.
public struct SourceLocation: Sendable, Hashable {
  public let offset: Int
  public let line: Int
  public let column: Int
}

/// A half-open range of byte offsets in a source file.
public struct SourceRange: Sendable, Hashable {
  public var start: Int
  public var end: Int

  public init(_ start: Int, _ end: Int) {
    self.start = start
    self.end = max(start, end)
  }

  /// The smallest range covering both.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(min(start, other.start), max(end, other.end))
  }
}

extension String {
  /// The text with each control character other than a line break or a tab (C0, DEL, C1) shown as
  /// Swift writes it, `\u{1B}`: an ESC or a BEL written raw in a string literal, or in a value a
  /// trace shows, never reaches the terminal.
  public var showingControlCharacters: String { showing(Self.isHidden) }

  /// The text on one line: every control character shown as Swift writes it, line breaks and tabs
  /// too (a value or a name in a view's row or column).
  public var showingEveryControlCharacter: String {
    showing { Self.isHidden($0) || [0x09, 0x0A, 0x0D].contains($0.value) }
  }

  /// The text with each scalar `escaped` picks written as Swift writes it, `\u{1B}`.
  private func showing(_ escaped: (Unicode.Scalar) -> Bool) -> String {
    guard unicodeScalars.contains(where: escaped) else { return self }
    var shown = ""
    for scalar in unicodeScalars {
      if escaped(scalar) {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: false
    case 0x00...0x1F, 0x7F...0x9F: true
    default: false
    }
  }
}
