import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where pipesh's output goes. Lines from concurrent jobs never interleave inside a line; output to
/// a file or pipe is buffered and flushed at job ends, output to a terminal line by line. An
/// interactive shell installs `lineWriter` to print above the line being edited.
public final class Console: Sendable {
  public enum Stream: Sendable {
    case output
    case error
  }

  private struct State {
    var buffer: [UInt8] = []
    var lineWriter: (@Sendable (String, Stream) -> Void)?
  }

  private let state = Locked(State())
  public let isTerminal: Bool

  public init() {
    isTerminal = isatty(1) == 1
  }

  /// Routes every line through `writer` (the line editor), or back to plain writes with nil.
  public func setLineWriter(_ writer: (@Sendable (String, Stream) -> Void)?) {
    flush()
    state.withLock { $0.lineWriter = writer }
  }

  /// Writes one line (a newline is added).
  public func line(_ text: String, to stream: Stream = .output) {
    if let writer = state.withLock({ $0.lineWriter }) {
      writer(text, stream)
      return
    }
    switch stream {
    case .output:
      let flushNow = state.withLock { state -> [UInt8]? in
        state.buffer.append(contentsOf: text.utf8)
        state.buffer.append(UInt8(ascii: "\n"))
        guard isTerminal || state.buffer.count >= 1 << 16 else { return nil }
        defer { state.buffer.removeAll(keepingCapacity: true) }
        return state.buffer
      }
      if let flushNow { Self.write(flushNow, to: 1) }
    case .error:
      flush()
      Self.write(Array((text + "\n").utf8), to: 2)
    }
  }

  public func flush() {
    let pending = state.withLock { state -> [UInt8] in
      defer { state.buffer.removeAll(keepingCapacity: true) }
      return state.buffer
    }
    if !pending.isEmpty { Self.write(pending, to: 1) }
  }

  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written <= 0 {
          if written < 0 && errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}
