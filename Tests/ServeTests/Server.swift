import Foundation
import Testing

/// A `pipesh-serve` started for a test, on a free port, running the pipesh built beside the tests
/// (or `$PIPESH`). Stopped (SIGKILL) when the test ends if it has not ended by itself.
final class Server: @unchecked Sendable {
  let process: Process
  let port: Int
  let firstLines: [String]
  private let output: FileHandle
  /// The feed, in present mode: the server's standard input.
  let feed: FileHandle

  var url: String { "http://127.0.0.1:\(port)/" }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// An executable of the package built with the test bundle.
  static func builtBesideTheTests(_ name: String) -> URL? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  static var serve: URL {
    if let path = ProcessInfo.processInfo.environment["PIPESH_SERVE"] { return URL(fileURLWithPath: path) }
    return builtBesideTheTests("pipesh-serve") ?? URL(fileURLWithPath: ".build/debug/pipesh-serve")
  }

  static var pipesh: URL {
    if let path = ProcessInfo.processInfo.environment["PIPESH"] { return URL(fileURLWithPath: path) }
    return builtBesideTheTests("pipesh") ?? URL(fileURLWithPath: ".build/debug/pipesh")
  }

  /// `arguments` are added to the server's; with `--trace-page`, the server prints a second line.
  init(
    port: Int = 0, present: Bool = false, pipesh: URL = Server.pipesh, environment extra: [String: String] = [:],
    arguments: [String] = []
  )
    throws
  {
    let process = Process()
    self.process = process
    process.executableURL = Self.serve
    process.arguments =
      ["--port", String(port), "--pipesh", pipesh.path] + (present ? ["--present"] : []) + arguments
    var environment = ProcessInfo.processInfo.environment
    environment.merge(extra) { $1 }
    process.environment = environment
    let (outRead, outWrite) = try Spawning.pipe()
    let (inRead, inWrite) = try Spawning.pipe()
    process.standardOutput = outWrite
    process.standardInput = inRead
    process.standardError = FileHandle.nullDevice
    try Spawning.lock.withLock { try process.run() }
    try outWrite.close()
    try inRead.close()
    output = outRead
    feed = inWrite
    var lines: [String] = []
    var buffer = Data()
    let wanted = present || arguments.contains("--trace-page") ? 2 : 1
    // At most a minute for the first lines: a server that neither prints nor ends (a hang seen
    // once under load, the test's whole time limit) fails here, saying so.
    let deadline = Date().addingTimeInterval(60)
    while lines.count < wanted {
      var ready = pollfd(fd: outRead.fileDescriptor, events: Int16(POLLIN), revents: 0)
      let waited = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
      var polled = poll(&ready, 1, waited)
      while polled < 0 && errno == EINTR {
        polled = poll(&ready, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
      }
      guard polled > 0 else {
        process.terminate()
        throw Failure(description: "pipesh-serve printed no URL in 60 s (so far: \(lines))")
      }
      let chunk = output.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    firstLines = lines
    guard let first = lines.first, first.hasPrefix("pipesh serve: http://127.0.0.1:"),
      let port = Int(first.dropFirst("pipesh serve: http://127.0.0.1:".count).dropLast())
    else {
      process.terminate()
      throw Failure(description: "pipesh-serve did not print its URL: \(lines)")
    }
    self.port = port
  }

  /// Waits (at most `timeout` seconds) for the server to end; its status, or nil if it did not.
  func waitForExit(timeout: Double = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    return process.isRunning ? nil : process.terminationStatus
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}

/// A WebSocket client written by hand over a plain socket (the HTTP upgrade, masked frames), to
/// send a server what no browser would.
final class RawSocket {
  let descriptor: Int32
  private var buffer: [UInt8] = []

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Connects and asks for the upgrade, with `headers` (lines like `Origin: …`) added; throws
  /// if the server answers anything but 101.
  convenience init(port: Int, headers: [String] = []) throws {
    try self.init(
      port: port,
      request: "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + headers.map { $0 + "\r\n" }.joined() + "\r\n")
    guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "the upgrade was refused: \(head)") }
  }

  /// The answer's status line and headers.
  private(set) var head = ""

  /// Sends `request` (an HTTP request's text) and reads the answer's head.
  init(port: Int, request: String) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Failure(description: "cannot connect to port \(port): \(errno)") }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    try write(Array(request.utf8))
    while !buffer.containsHeaderEnd {
      try fill()
    }
    let end = try #require(buffer.headerEnd)
    head = String(decoding: buffer[..<end], as: UTF8.self)
    buffer.removeSubrange(..<(end + 4))
  }

  /// What follows the head until the server closes the connection (or `length` bytes).
  func body(length: Int? = nil) -> String {
    while length.map({ buffer.count < $0 }) ?? true {
      do { try fill() } catch { break }
    }
    return String(decoding: buffer, as: UTF8.self)
  }

  deinit {
    close(descriptor)
  }

  private func write(_ bytes: [UInt8]) throws {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw Failure(description: "the server closed the connection") }
      written += count
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = recv(descriptor, &chunk, chunk.count, 0)
    guard count > 0 else { throw Failure(description: "the connection ended (or 30 s passed with nothing)") }
    buffer.append(contentsOf: chunk[0..<count])
  }

  /// Sends only the head of a frame that says it carries `length` bytes.
  func sendHead(length: Int, opcode: UInt8 = 1) throws {
    try write(
      [0x80 | opcode, 0x80 | 127] + (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xff) } + [1, 2, 3, 4])
  }

  /// Sends one frame, masked as a client must (opcode 1 text, 2 binary, 0 a continuation; not
  /// `final`: more frames of the message follow).
  func send(_ payload: [UInt8], opcode: UInt8 = 1, final: Bool = true) throws {
    var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
    }
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try write(frame)
  }

  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  /// The next frame: its opcode and payload.
  func receive() throws -> (opcode: UInt8, payload: [UInt8]) {
    while true {
      if buffer.count >= 2 {
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        if length == 126, buffer.count >= 4 {
          length = Int(buffer[2]) << 8 | Int(buffer[3])
          offset = 4
        } else if length == 127, buffer.count >= 10 {
          length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
          offset = 10
        }
        if length < 126 || offset > 2, buffer.count >= offset + length {
          let frame = (buffer[0] & 0x0f, Array(buffer[offset..<(offset + length)]))
          buffer.removeSubrange(..<(offset + length))
          return frame
        }
      }
      try fill()
    }
  }

  /// The next text frame as a JSON object (a ping is answered by nothing: the server sends none).
  func receiveJSON() throws -> [String: Any] {
    let (opcode, payload) = try receive()
    guard opcode == 1 else { throw Failure(description: "frame of opcode \(opcode): \(payload.prefix(100))") }
    return try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
  }
}

extension Array where Element == UInt8 {
  var headerEnd: Int? {
    guard count >= 4 else { return nil }
    return (0...(count - 4)).first { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
  }
  var containsHeaderEnd: Bool { headerEnd != nil }
}

/// Pipes whose descriptors close on exec, and the lock held while one is made and while a child
/// starts: a server or browser started by one test never holds another's pipe open (the feed's
/// end would then never be seen).
enum Spawning {
  static let lock = NSLock()

  static func pipe() throws -> (read: FileHandle, write: FileHandle) {
    var descriptors: [Int32] = [-1, -1]
    let made = lock.withLock {
      guard Glibc.pipe(&descriptors) == 0 else { return false }
      for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      return true
    }
    guard made else { throw Server.Failure(description: "pipe failed: \(errno)") }
    return (
      FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
      FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
    )
  }
}
