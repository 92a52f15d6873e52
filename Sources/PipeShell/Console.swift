import Locking
import PipeSession
import PipeSyntax
import PipeViews
import Platform
import TextFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where pipesh's output goes. Lines from concurrent jobs never interleave inside a line. Output to
/// a terminal, a pipe or a device is written line by line, as it is produced (`| head -3` sees
/// lines at once); output to a regular file is buffered and flushed at every job's end, at exit and
/// on SIGTERM/SIGHUP. An interactive shell installs `lineWriter` to print above the edited line.
///
/// A write that fails ends pipesh: quietly with status 141 when the reader went away (EPIPE, as
/// after `| head -1`), with a message and status 1 otherwise (`> /dev/full`).
public final class Console: SessionConsole {
  public typealias Stream = ConsoleStream

  private struct State {
    var buffer: [UInt8] = []
    var lineWriter: (@Sendable (String, Stream) -> Void)?
  }

  private let state = Locked(State())
  public let isTerminal: Bool

  /// Whether every line is written at once rather than buffered.
  private let lineByLine: Bool

  public init() {
    isTerminal = isatty(1) == 1
    var status = stat()
    let regularFile = fstat(1, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    lineByLine = !regularFile
    // A reader that goes away is a write error (EPIPE), handled below, not a signal that kills.
    signal(SIGPIPE, SIG_IGN)
  }

  /// Routes every line through `writer` (the line editor), or back to plain writes with nil.
  public func setLineWriter(_ writer: (@Sendable (String, Stream) -> Void)?) {
    flush()
    state.withLock { $0.lineWriter = writer }
  }

  /// Routes every line through `writer` (nil: plain writes) and returns the writer before it.
  func replaceLineWriter(
    _ writer: (@Sendable (String, Stream) -> Void)?
  ) -> (@Sendable (String, Stream) -> Void)? {
    flush()
    return state.withLock { state in
      defer { state.lineWriter = writer }
      return state.lineWriter
    }
  }

  /// Diagnostics on standard error, coloured when it is a terminal that wants colour (`Paint`).
  public func report(_ diagnostics: [Diagnostic], in source: SourceFile) {
    report(diagnostics, in: source, decorator: Paint.diagnostics(for: 2))
  }

  /// Writes one line (a newline is added). A line to standard error that begins `error:` has that
  /// word in red when standard error is a terminal (`Paint`).
  public func line(_ text: String, to stream: Stream = .output) {
    var text = text
    if stream == .error, text.hasPrefix("error:"), Paint.isOn(for: 2) {
      text = Paint.paint("error:", .red, bold: true, on: true) + text.dropFirst("error:".count)
    }
    if let writer = state.withLock({ $0.lineWriter }) {
      writer(text, stream)
      return
    }
    switch stream {
    case .output:
      let flushNow = state.withLock { state -> [UInt8]? in
        state.buffer.append(contentsOf: text.utf8)
        state.buffer.append(UInt8(ascii: "\n"))
        guard lineByLine || state.buffer.count >= 1 << 16 else { return nil }
        defer { state.buffer.removeAll(keepingCapacity: true) }
        return state.buffer
      }
      if let flushNow { Self.write(flushNow, to: 1) }
    case .error:
      flush()
      Self.write(Array((text + "\n").utf8), to: 2)
    }
  }

  /// A job's line, to standard output.
  public func emit(_ line: String) {
    self.line(line)
  }

  public func flush() {
    let pending = state.withLock { state -> [UInt8] in
      defer { state.buffer.removeAll(keepingCapacity: true) }
      return state.buffer
    }
    if !pending.isEmpty { Self.write(pending, to: 1) }
  }

  /// Writes `text` to standard output at once, unbuffered; a write error ends pipesh as any
  /// output's does (`--help > /dev/full`: status 1).
  public static func writeNow(_ text: String) {
    write(Array(text.utf8), to: 1)
  }

  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    // The descriptor holds /dev/null (see `StandardDescriptors`): writing would lose the output.
    if !bytes.isEmpty, StandardDescriptors.wasClosed(descriptor) { writeFailed(descriptor, nil) }
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Platform.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        if written <= 0 { writeFailed(descriptor, written < 0 ? errno : EIO) }
        offset += written
      }
    }
  }

  /// Output cannot be written: nothing later could be seen either, so pipesh ends.
  /// `code` nil: the descriptor was closed when pipesh started.
  private static func writeFailed(_ descriptor: Int32, _ code: Int32?) -> Never {
    if code == EPIPE { _exit(141) }
    let stream = descriptor == 1 ? "standard output" : "standard error"
    let reason = code.map { String(cString: strerror($0)) } ?? "it is closed (pipesh was started with \(stream) closed)"
    let message = Array("pipesh: cannot write to \(stream): \(reason)\n".utf8)
    if !StandardDescriptors.wasClosed(2) { _ = message.withUnsafeBytes { Platform.write(2, $0.baseAddress, $0.count) } }
    _exit(1)
  }
}
