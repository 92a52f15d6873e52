/// The protocol's base layer: `Content-Length: N` and other headers, a blank line, then N bytes
/// of JSON. Bytes go in as they are read; whole messages, or what was wrong, come out. Nothing
/// grows without bound: a header block longer than `maximumHeader` or a message longer than
/// `maximumContent` is said and its bytes are skipped as they come, never kept.
public struct FrameReader: Sendable {
  public enum Frame: Sendable, Equatable {
    case message([UInt8])
    /// Bytes that are no message: what was wrong with them (they are skipped).
    case malformed(String)
  }

  public static let maximumHeader = 8 * 1024
  public static let maximumContent = 64 * 1024 * 1024

  private var buffer: [UInt8] = []
  /// Bytes of an oversized message still to skip.
  private var skipping = 0
  /// The length of the message whose headers were read, waiting for its bytes.
  private var contentLength: Int?

  public init() {}

  /// Takes bytes read from the client.
  public mutating func feed(_ bytes: some Collection<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, or nil until more bytes come.
  public mutating func next() -> Frame? {
    if skipping > 0 {
      let dropped = min(skipping, buffer.count)
      buffer.removeFirst(dropped)
      skipping -= dropped
      if skipping > 0 { return nil }
    }
    if let length = contentLength {
      guard buffer.count >= length else { return nil }
      let content = Array(buffer.prefix(length))
      buffer.removeFirst(length)
      contentLength = nil
      return .message(content)
    }
    guard let end = headerEnd() else {
      if buffer.count > Self.maximumHeader {
        // No blank line within the limit: not a header; keep the last three bytes, which may
        // begin the blank line.
        buffer.removeFirst(buffer.count - 3)
        return .malformed("a header of more than \(Self.maximumHeader) bytes without a blank line after it")
      }
      return nil
    }
    let header = String(decoding: buffer[..<end], as: UTF8.self)
    buffer.removeFirst(end + 4)
    switch Self.length(in: header) {
    case .success(let length) where length > Self.maximumContent:
      skipping = length
      return .malformed("a message of \(length) bytes: at most \(Self.maximumContent) are read")
    case .success(let length):
      contentLength = length
      return next()
    case .failure(let problem):
      return .malformed(problem.text)
    }
  }

  /// Where the header block's blank line starts.
  private func headerEnd() -> Int? {
    let limit = min(buffer.count, Self.maximumHeader + 4)
    guard limit >= 4 else { return nil }
    for index in 0...(limit - 4)
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
