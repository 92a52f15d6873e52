/// The protocol's base layer: `Content-Length: N` and other headers, a blank line, then N bytes
/// of JSON. Bytes go in as they are read; whole messages, or what was wrong, come out. Nothing
/// grows without bound: a header block longer than `maximumHeader` or a message longer than
/// `maximumContent` is said and its bytes are skipped as they come, never kept. After a header
/// that is none, the reader skips to the next `Content-Length`, so the messages after it still come.
public struct FrameReader: Sendable {
  public enum Frame: Sendable, Equatable {
    case message([UInt8])
    /// Bytes that are no message: what was wrong with them (they are skipped).
    case malformed(String)
  }

  public static let maximumHeader = 8 * 1024
  /// Twice as large as a script may be anywhere in pipesh (`TextFile.maximumBytes`): room for a
  /// whole script in JSON, whose escapes (`\n`, `\"`) make it longer.
  public static let maximumContent = 32 * 1024 * 1024

  /// The bytes read and not yet taken: `buffer[start...]` (taken bytes are dropped now and then,
  /// not at each message, so many small messages in one read cost their own length, not more).
  private var buffer: [UInt8] = []
  private var start = 0
  /// Bytes of an oversized message still to skip.
  private var skipping = 0
  /// The length of the message whose headers were read, waiting for its bytes.
  private var contentLength: Int?
  /// After a header that was no header: what follows is skipped up to the next `Content-Length`.
  private var resynchronizing = false

  public init() {}

  private var waiting: Int { buffer.count - start }

  /// Takes bytes read from the client.
  public mutating func feed(_ bytes: some Collection<UInt8>) {
    if start > 0, start * 2 >= buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, or nil until more bytes come.
  public mutating func next() -> Frame? {
    if skipping > 0 {
      let dropped = min(skipping, waiting)
      start += dropped
      skipping -= dropped
      if skipping > 0 { return nil }
    }
    if let length = contentLength {
      guard waiting >= length else { return nil }
      let content = Array(buffer[start..<(start + length)])
      start += length
      contentLength = nil
      return .message(content)
    }
    if resynchronizing {
      guard let header = nextContentLength() else {
        // Keep what may begin the next header.
        start = max(start, buffer.count - Self.headerName.count)
        return nil
      }
      start = header
      resynchronizing = false
    }
    guard let end = headerEnd() else {
      if waiting > Self.maximumHeader {
        resynchronizing = true
        start += 1
        return .malformed("a header of more than \(Self.maximumHeader) bytes without a blank line after it")
      }
      return nil
    }
    let header = String(decoding: buffer[start..<end], as: UTF8.self)
    let headerStart = start
    start = end + 4
    switch Self.length(in: header) {
    case .success(let length) where length > Self.maximumContent:
      skipping = length
      return .malformed("a message of \(length) bytes: at most \(Self.maximumContent) are read")
    case .success(let length):
      contentLength = length
      return next()
    case .failure(let problem):
      // Junk and a real header may have run together: look for the next `Content-Length` from
      // just after where this block began (so its body, if it has one, is skipped too).
      start = headerStart + 1
      resynchronizing = true
      return .malformed(problem.text)
    }
  }

  private static let headerName = Array("content-length:".utf8)

  /// Where the next `Content-Length:` (in any case) begins in what waits, or nil.
  private func nextContentLength() -> Int? {
    let name = Self.headerName
    guard waiting >= name.count else { return nil }
    for index in start...(buffer.count - name.count) {
      var matches = true
      for (offset, byte) in name.enumerated() {
        let lowered =
          buffer[index + offset] | (buffer[index + offset] >= 0x41 && buffer[index + offset] <= 0x5A ? 0x20 : 0)
        if lowered != byte {
          matches = false
          break
        }
      }
      if matches { return index }
    }
    return nil
  }

  /// Where the header block's blank line starts.
  private func headerEnd() -> Int? {
    let limit = min(buffer.count, start + Self.maximumHeader + 4)
    guard limit - start >= 4 else { return nil }
    for index in start...(limit - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
      return index
    }
    return nil
  }

  struct Problem: Error {
    let text: String
  }

  /// The `Content-Length` of a header block (names are not case-sensitive; others are ignored).
  static func length(in header: String) -> Result<Int, Problem> {
    var length: Int?
    for line in header.split(separator: "\r\n", omittingEmptySubsequences: false) {
      guard let colon = line.firstIndex(of: ":") else {
        return .failure(Problem(text: "a header line without a colon: '\(line.prefix(80))'"))
      }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
      guard name == "content-length" else { continue }
      guard let number = Int(value), number >= 0 else {
        return .failure(Problem(text: "Content-Length '\(value.prefix(40))' is not a length"))
      }
      length = number
    }
    guard let length else { return .failure(Problem(text: "a message without a Content-Length header")) }
    return .success(length)
  }

  /// A message framed for the client.
  public static func frame(_ content: String) -> [UInt8] {
    let body = Array(content.utf8)
    return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String {
    String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
  }
}
