import PipeSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text helpers for tables and times, measured in the columns a terminal gives the text.
package enum Format {
  package static func pad(_ text: String, _ width: Int) -> String {
    let wide = columns(text)
    return wide >= width ? text : text + String(repeating: " ", count: width - wide)
  }

  package static func padLeft(_ text: String, _ width: Int) -> String {
    let wide = columns(text)
    return wide >= width ? text : String(repeating: " ", count: width - wide) + text
  }

  /// Rows with columns padded to their widest cell; the last column is not padded.
  package static func table(_ rows: [[String]], gap: Int = 2) -> [String] {
    guard let count = rows.map(\.count).max() else { return [] }
    var widths = [Int](repeating: 0, count: count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], columns(cell)) }
    }
    return rows.map { row in
      var line = ""
      for (index, cell) in row.enumerated() {
        line += index == row.count - 1 ? cell : pad(cell, widths[index] + gap)
      }
      return line
    }
  }

  /// `table`, in at most `width` columns where it can be: the cells of column `shrinking` are
  /// shortened with `…` (to no fewer than 8 columns), then any line still too wide is cut.
  package static func table(_ rows: [[String]], gap: Int = 2, fitting width: Int, shrinking column: Int) -> [String] {
    let laid = table(rows, gap: gap)
    let widest = laid.map(columns).max() ?? 0
    guard widest > width else { return laid }
    let current = rows.map { $0.indices.contains(column) ? columns($0[column]) : 0 }.max() ?? 0
    let allowed = max(8, current - (widest - width))
    let shrunk = rows.map { row in
      row.enumerated().map { index, cell in index == column ? shortened(cell, to: allowed) : cell }
    }
    return table(shrunk, gap: gap).map { shortened($0, to: width) }
  }

  /// How wide a column of labels beside lanes may be: as wide as its widest label when the lanes
  /// still fit beside it, else down to what leaves them room, but never under two fifths of the
  /// screen (a lane is cut before a label is cut to nothing).
  package static func labelWidth(_ widest: Int, beside lane: Int, gap: Int, width: Int) -> Int {
    guard widest + gap + lane > width else { return widest }
    return min(widest, max(width - gap - lane, max(12, width * 2 / 5)))
  }

  /// `line` in lines of at most `width` columns, broken at spaces; a continuation line starts
  /// `indent` columns further in than the line's own indentation. A word wider than the room is
  /// shortened with `…`.
  package static func wrapped(_ line: String, width: Int, indent: Int = 2) -> [String] {
    guard columns(line) > width else { return [line] }
    let leading = line.prefix(while: { $0 == " " }).count
    var lines: [String] = []
    var current = String(repeating: " ", count: leading)
    var currentHasWord = false
    let continuation = String(repeating: " ", count: min(leading + indent, max(0, width / 2)))
    for word in line.dropFirst(leading).split(separator: " ", omittingEmptySubsequences: false) {
      let word = String(word)
      if currentHasWord, columns(current) + 1 + columns(word) > width {
        lines.append(current)
        current = continuation
        currentHasWord = false
      }
      if currentHasWord { current += " " }
      current += shortened(word, to: max(1, width - columns(current)))
      currentHasWord = true
    }
    lines.append(current)
    return lines
  }

  /// A two-column table (`NAME  what it does`) in `width` columns: the second column wraps under
  /// itself; when the first is wider than half the screen, the second goes under it.
  package static func wrappedTable(_ rows: [[String]], width: Int, gap: Int = 2) -> [String] {
    let first = rows.map { columns($0.first ?? "") }.max() ?? 0
    guard first <= width / 2 else {
      return rows.flatMap { row in
        [row.first ?? ""].flatMap { wrapped($0, width: width) }
          + row.dropFirst().flatMap { wrapped("      " + $0, width: width) }
      }
    }
    let room = width - first - gap
    return rows.flatMap { row -> [String] in
      let text = row.dropFirst().joined(separator: " ")
      let parts = wrapped(text, width: room, indent: 0)
      return parts.enumerated().map { index, part in
        (index == 0 ? pad(row.first ?? "", first + gap) : String(repeating: " ", count: first + gap)) + part
      }
    }
  }

  /// The columns `text` takes on a terminal: two for a wide (East Asian or emoji) character, none
  /// for a combining mark or a control character, one for any other. (Not `wcwidth`: it depends on
  /// the locale, and a view must measure the same in a pipe as on a terminal.)
  package static func columns(_ text: String) -> Int {
    // Printable ASCII, most of what views show: a column a byte.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return scalarColumns(text).reduce(0) { $0 + $1.columns }
  }

  /// Each scalar of `text` with the columns it takes; a colour sequence (ESC [ … m) takes none.
  static func scalarColumns(_ text: String) -> [(scalar: Unicode.Scalar, columns: Int)] {
    var inEscape = false
    return text.unicodeScalars.map { scalar in
      if inEscape || scalar == "\u{1B}" {
        inEscape = scalar == "\u{1B}" || scalar == "[" || !(0x40...0x7E).contains(scalar.value)
        return (scalar, 0)
      }
      return (scalar, columns(scalar))
    }
  }

  static func columns(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    let wide: [ClosedRange<UInt32>] = [
      0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]
    return wide.contains { $0.contains(value) } ? 2 : 1
  }

  /// `text` in at most `width` columns: cut, with `…` as its last column, when it is wider.
  package static func shortened(_ text: String, to width: Int) -> String {
    guard columns(text) > width else { return text }
    guard width > 1 else { return width == 1 ? "…" : "" }
    var kept = ""
    var used = 0
    for (scalar, wide) in scalarColumns(text) {
      if used + wide > width - 1 { break }
      kept.unicodeScalars.append(scalar)
      used += wide
    }
    // A colour cut off before its end is ended.
    return kept + "…" + (kept.contains("\u{1B}") ? "\u{1B}[0m" : "")
  }

  /// The width of a view shown inside another (`help`'s examples, indented).
  @TaskLocal package static var widthInside: Int?

  /// The width views fit: `COLUMNS` when it is a positive number, else the terminal's (standard
  /// output's), else 100.
  package static var screenWidth: Int {
    if let widthInside { return widthInside }
    if let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 {
      return columns
    }
    var size = winsize()
    if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 100
  }
}
