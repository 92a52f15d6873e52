import Dispatch
import Locking
import PipeSession
import Platform
import TraceFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh serve --present`: what the interactive session shows, written to `pipesh-serve` as JSON
/// lines on a pipe to its standard input (the feed), for the browsers that watch it:
///
///     {"type":"input","prompt":"pipesh[0]> ","text":"timer 1 | print"}
///     {"type":"output","text":"…"}                 a line to the terminal, colour codes stripped
///     {"type":"top","text":"…"}                    a snapshot of top, at most once a second
///     {"type":"picture","title":"draw …","svg":"<svg…>"}
///
/// The shell only queues a line (cheap, under a lock); one thread of the feed's own writes them.
/// The shell never waits for the server: past `maximumPending` bytes not yet written (a server
/// that reads slowly), lines are dropped. A server that has gone (the pipe is broken), or has not
/// read for `patience`, stops the feed, and the shell says so once and goes on.
public final class PresentFeed: Sendable {
  /// How many bytes may wait to be written before lines are dropped.
  static let maximumPending = 8 << 20

  private struct State {
    var pending = 0
    var stopped = false
    var closed = false
  }

  private let descriptor: Int32
  private let state = Locked(State())
  private let queue = DispatchQueue(label: "pipesh.present-feed")
  /// Said once, when the server has gone.
  private let stopped: @Sendable (String) -> Void

  /// A feed writing to `descriptor` (the write end of the pipe to the server's standard input);
  /// `stopped` is told why, once, if the server goes away.
  public init(descriptor: Int32, stopped: @escaping @Sendable (String) -> Void) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    self.descriptor = descriptor
    self.stopped = stopped
  }

  /// A line entered at the prompt.
  public func input(prompt: String, text: String) {
    send(
      "{\"type\":\"input\",\"prompt\":\(TraceFile.quoted(Self.plain(prompt))),\"text\":\(TraceFile.quoted(text))}")
  }

  /// A line the session wrote to the terminal (standard output or error).
  public func output(_ text: String) {
    send("{\"type\":\"output\",\"text\":\(TraceFile.quoted(Self.plain(text)))}")
  }

  /// A snapshot of `top`.
  public func top(_ lines: [String]) {
    send("{\"type\":\"top\",\"text\":\(TraceFile.quoted(lines.map(Self.plain).joined(separator: "\n")))}")
  }

  /// The picture of a `draw`, `trace` or `compare`.
  func picture(title: String, svg: String) {
    send("{\"type\":\"picture\",\"title\":\(TraceFile.quoted(title)),\"svg\":\(TraceFile.quoted(svg))}")
  }

  /// Whether the feed still reaches the server.
  public var isOpen: Bool { state.withLock { !$0.stopped && !$0.closed } }

  /// Writes what is queued, then closes the pipe: the server sees the feed end.
  public func close() {
    guard
      state.withLock({ state in
        defer { state.closed = true }; return !state.closed
      })
    else { return }
    queue.sync {
      _ = Platform.close(descriptor)
    }
  }

  private func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    let queued = state.withLock { state -> Bool in
      guard !state.stopped, !state.closed, state.pending + bytes.count <= Self.maximumPending else { return false }
      state.pending += bytes.count
      return true
    }
    guard queued else { return }
    queue.async { [self] in
      // Lines queued before the feed stopped are not written: each would wait its patience again.
      let written = state.withLock(\.stopped) ? true : write(bytes)
      let first = state.withLock { state -> Bool in
        state.pending -= bytes.count
        guard !written, !state.stopped else { return false }
        state.stopped = true
        return true
      }
      if first { stopped("pipesh: presenting stopped: pipesh-serve no longer reads the session (this shell goes on)") }
    }
  }

  /// How long a write may wait for the server to read before the feed gives up on it.
  static let patience: Int32 = 5000

  /// Writes all of `bytes`; false when the pipe is broken, the write fails, or the server has not
  /// read for `patience` milliseconds (the descriptor is non-blocking: `close` never hangs).
  private func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Platform.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          guard poll(&ready, 1, Self.patience) > 0 else { return false }
          continue
        }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }

  /// Text without its terminal colour codes (`ESC [ … m`) and the line editor's markers (`\u{1}`).
  static func plain(_ text: String) -> String {
    guard text.contains(where: { $0 == "\u{1B}" || $0 == "\u{1}" }) else { return text }
    var out = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch scalar {
      case "\u{1}": continue
      case "\u{1B}":
        // A CSI sequence: `[`, parameters, and a final byte from @ to ~.
        guard let next = scalars.next() else { break }
        guard next == "[" else { continue }
        while let part = scalars.next(), !(0x40...0x7E).contains(part.value) {}
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
