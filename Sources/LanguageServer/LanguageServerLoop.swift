import Dispatch
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh lsp`'s process: messages read from standard input, answered on standard output, one
/// at a time in the order they came; what is wrong with the stream is said on standard error.
public enum LanguageServerLoop {
  /// Serves until `exit` (0 after `shutdown`, 1 before it, as the protocol says) or until standard
  /// input ends (1: the client went away without `exit`).
  public static func run(input: Int32 = 0, output: Int32 = 1) async -> Int32 {
    let server = LanguageServer()
    var reader = FrameReader()
    let queue = DispatchQueue(label: "pipesh.lsp.read")
    while true {
      while let frame = reader.next() {
        if case .malformed(let problem) = frame { say("pipesh lsp: skipped \(problem)") }
        let reply = await server.handle(frame)
        for message in reply.messages {
          guard write(FrameReader.frame(message.text), to: output) else { return 1 }
        }
        if let status = reply.exitStatus { return status }
      }
      // A blocking read, off the concurrency pool's few threads.
      let chunk = await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: read(input)) }
      }
      guard let chunk, !chunk.isEmpty else { return 1 }
      reader.feed(chunk)
    }
  }

  /// Up to 64 KiB of what the descriptor has; empty at its end, nil when it cannot be read.
  private static func read(_ descriptor: Int32) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { Platform.read(descriptor, $0.baseAddress, $0.count) }
      if count >= 0 { return Array(buffer.prefix(count)) }
      if errno != EINTR { return nil }
    }
  }

  private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Platform.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return false
      }
      written += count
    }
    return true
  }

  private static func say(_ line: String) {
    _ = write(Array((line + "\n").utf8), to: 2)
  }
}
