import PipeRuntime

/// Text helpers for tables and times.
enum Format {
  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }

  /// Rows with columns padded to their widest cell; the last column is not padded.
  static func table(_ rows: [[String]], gap: Int = 2) -> [String] {
    guard let columns = rows.map(\.count).max() else { return [] }
    var widths = [Int](repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return rows.map { row in
      var line = ""
      for (index, cell) in row.enumerated() {
        line += index == row.count - 1 ? cell : pad(cell, widths[index] + gap)
      }
      return line
    }
  }
}
