import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why `listen(onSocket:)` could not listen.
public struct ProbeListenerError: Error, CustomStringConvertible, Equatable {
  public let description: String
}

extension ProbeRecorder {
  /// Serves this recorder on a Unix socket at `path` (created with mode 0600: yours alone), so that
  /// `pipesh attach PATH` can read its trace while the program runs. A socket file that nothing
  /// listens on any more (an earlier run's) is replaced; a socket a program still listens on, or a
  /// file that is not a socket, is an error. The listener answers one client at a time on a
  /// thread of its own, each within two seconds, so that no client can block or slow the program:
  /// a client that says nothing, sends too much or does not read is dropped. It stops when
  /// `stop()` is called or the listener is released.
  public func listen(onSocket path: String) throws(ProbeListenerError) -> ProbeListener {
    try ProbeListener(recorder: self, path: path)
  }
}

/// A recorder served on a Unix socket (`ProbeRecorder.listen(onSocket:)`).
public final class ProbeListener: Sendable {
  public let path: String
  private let descriptor: Int32
  private let stopped = Locked(false)

  /// The most a request may be: one word and a newline.
  static let longestRequest = 64
  /// How long a client has to ask, and to take the answer.
  static let clientTimeout = timeval(tv_sec: 2, tv_usec: 0)

  init(recorder: ProbeRecorder, path: String) throws(ProbeListenerError) {
    self.path = path
    var address = sockaddr_un()
    let room = MemoryLayout.size(ofValue: address.sun_path)
    guard path.utf8.count < room else {
      throw ProbeListenerError(description: "\(path) is too long for a socket's path (at most \(room - 1) bytes)")
    }
    try Self.clearStale(path)
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    let fd = ProbeClient.streamSocket()
    guard fd >= 0 else { throw ProbeListenerError(description: "cannot make a socket: \(Self.errorText())") }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 8) == 0 else {
      let error = Self.errorText()
      close(fd)
      throw ProbeListenerError(description: "cannot listen on \(path): \(error)")
    }
    descriptor = fd
    let serving = Serving(recorder: recorder, socket: fd, stopped: stopped)
    var thread = pthread_t()
    let context = Unmanaged.passRetained(serving).toOpaque()
    guard
      pthread_create(
        &thread, nil,
        { raw in
          #if canImport(Glibc)
            guard let raw else { return nil }
          #endif
          Unmanaged<Serving>.fromOpaque(raw).takeRetainedValue().serve()
          return nil
        }, context) == 0
    else {
      Unmanaged<Serving>.fromOpaque(context).release()
      close(fd)
      unlink(path)
      throw ProbeListenerError(description: "cannot start the listener's thread")
    }
    pthread_detach(thread)
  }

  deinit {
    stop()
  }

  /// Stops listening: the socket file goes, and no client is answered any more.
  public func stop() {
    guard
      !stopped.withLock({ stopped in
        defer { stopped = true }; return stopped
      })
    else { return }
    // Wakes the thread's accept, which then closes the socket.
    shutdown(descriptor, Int32(SHUT_RDWR))
    unlink(path)
  }

  /// Removes a socket file nothing listens on; an error for one something listens on, and for a
  /// file that is not a socket (it is never removed).
  private static func clearStale(_ path: String) throws(ProbeListenerError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    guard status.st_mode & S_IFMT == S_IFSOCK else {
      throw ProbeListenerError(description: "\(path) exists and is not a socket: choose another path")
    }
    if ProbeClient.connection(to: path) != nil {
      throw ProbeListenerError(description: "a program already listens on \(path)")
    }
    unlink(path)
  }

  static func errorText() -> String { String(cString: strerror(errno)) }

  /// What the listener's thread holds.
  private final class Serving: Sendable {
    let recorder: ProbeRecorder
    let socket: Int32
    let stopped: Locked<Bool>

    init(recorder: ProbeRecorder, socket: Int32, stopped: Locked<Bool>) {
      self.recorder = recorder
      self.socket = socket
      self.stopped = stopped
    }

    func serve() {
      while !stopped.withLock({ $0 }) {
        let client = accept(socket, nil, nil)
        guard client >= 0 else {
          if errno == EINTR || errno == ECONNABORTED { continue }
          break
        }
        answer(client)
        close(client)
      }
      close(socket)
    }

    /// Reads one request line within the timeout and answers it: `trace` gets the recorder's trace.
    private func answer(_ client: Int32) {
      var timeout = ProbeListener.clientTimeout
      setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var request: [UInt8] = []
      var byte: UInt8 = 0
      while request.count < ProbeListener.longestRequest, recv(client, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") {
        request.append(byte)
      }
      let reply =
        String(decoding: request, as: UTF8.self) == "trace"
        ? recorder.trace() : "error: pipesh attach asks for 'trace'; nothing else is answered\n"
      ProbeClient.deliver(Array(reply.utf8), to: client)
    }
  }
}

/// The client's side of the socket: what `pipesh attach` and the listener's own check use.
public enum ProbeClient {
  /// A connection to the socket at `path`, or nil when nothing listens there.
  public static func connection(to path: String) -> Int32? {
    var address = sockaddr_un()
    guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    let fd = streamSocket()
    guard fd >= 0 else { return nil }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// A Unix stream socket, closed on exec.
  static func streamSocket() -> Int32 {
    #if canImport(Glibc)
      socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
  }

  /// Writes all of `bytes`, or as much as the peer takes before its timeout; never raises SIGPIPE.
  static func deliver(_ bytes: [UInt8], to fd: Int32) {
    var sent = 0
    while sent < bytes.count {
      let wrote = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard wrote > 0 else { return }
      sent += wrote
    }
  }

  /// Asks the program listening at `path` for its probes' trace: the trace's text, or why not.
  /// Reads at most `limit` bytes, and waits at most `timeout` seconds between two reads.
  public static func trace(
    fromSocket path: String, limit: Int, timeout seconds: Int = 10
  ) -> Result<String, ProbeListenerError> {
    guard let fd = connection(to: path) else {
      return .failure(
        ProbeListenerError(
          description:
            "nothing listens on \(path): start the program, whose recorder calls listen(onSocket: \"\(path)\")"))
    }
    defer { close(fd) }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    deliver(Array("trace\n".utf8), to: fd)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 { break }
      guard count > 0 else {
        return .failure(ProbeListenerError(description: "\(path) stopped answering: \(ProbeListener.errorText())"))
      }
      received += buffer[..<count]
      guard received.count <= limit else {
        return .failure(
          ProbeListenerError(description: "\(path) sent more than \(limit) bytes, the most a trace may be"))
      }
    }
    return .success(String(decoding: received, as: UTF8.self))
  }
}
