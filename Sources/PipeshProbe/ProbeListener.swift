import Locking
import Platform

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
  /// thread of its own, each within two seconds in all, so that no client can block the program: a
  /// client that says nothing, sends too much, or takes its answer too slowly is dropped. It stops
  /// when `stop()` is called or the listener is released.
  public func listen(onSocket path: String) throws(ProbeListenerError) -> ProbeListener {
    try ProbeListener(recorder: self, path: path)
  }
}

/// A recorder served on a Unix socket (`ProbeRecorder.listen(onSocket:)`).
public final class ProbeListener: Sendable {
  public let path: String
  /// Whether it stopped, and the write end of the pipe that wakes its thread: written and closed
  /// under the lock, so that it is never written after the thread closed it.
  private let state: Locked<(stopped: Bool, wake: Int32)>

  /// The most a request may be: one word and a newline.
  static let longestRequest = 64
  /// How long a client has, in all, to ask and to take the answer.
  static let clientMilliseconds = 2000

  init(recorder: ProbeRecorder, path: String) throws(ProbeListenerError) {
    self.path = path
    guard let address = ProbeClient.address(path) else {
      throw ProbeListenerError(
        description: "\(path) is too long for a socket's path (at most \(ProbeClient.longestPath) bytes)")
    }
    try Self.clearStale(path)
    let fd = ProbeClient.streamSocket()
    guard fd >= 0 else { throw ProbeListenerError(description: "cannot make a socket: \(Self.errorText())") }
    var bound = address
    let bindResult = withUnsafePointer(to: &bound) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    var pipeEnds: [Int32] = [-1, -1]
    guard bindResult == 0, chmod(path, 0o600) == 0, listen(fd, 8) == 0, pipe(&pipeEnds) == 0 else {
      let error = Self.errorText()
      close(fd)
      if bindResult == 0 { unlink(path) }
      throw ProbeListenerError(description: "cannot listen on \(path): \(error)")
    }
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    state = Locked((false, pipeEnds[1]))
    let serving = Serving(recorder: recorder, socket: fd, wake: pipeEnds[0], path: path, state: state)
    guard Platform.detachThread({ serving.serve() }) else {
      // Stopped already, so that the release of this half-made listener does nothing more.
      state.withLock { $0.stopped = true }
      for end in [fd, pipeEnds[0], pipeEnds[1]] { close(end) }
      unlink(path)
      throw ProbeListenerError(description: "cannot start the listener's thread")
    }
  }

  deinit {
    stop()
  }

  /// Stops listening: the socket file goes, and no client is answered any more.
  public func stop() {
    let stopping = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.stopped = true
      var byte: UInt8 = 1
      _ = write(state.wake, &byte, 1)
      return true
    }
    if stopping { unlink(path) }
  }

  /// Removes a socket file nothing listens on; an error for one something listens on, and for a
  /// file that is not a socket (never removed).
  private static func clearStale(_ path: String) throws(ProbeListenerError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    guard status.st_mode & S_IFMT == S_IFSOCK else {
      throw ProbeListenerError(description: "\(path) exists and is not a socket: choose another path")
    }
    switch ProbeClient.connect(path, timeout: 1) {
    case .success(let fd):
      close(fd)
      throw ProbeListenerError(description: "a program already listens on \(path)")
    case .failure(let failure) where failure.code == ECONNREFUSED:
      unlink(path)
    case .failure(let failure):
      throw ProbeListenerError(description: "cannot tell whether a program listens on \(path): \(failure)")
    }
  }

  static func errorText() -> String { String(cString: strerror(errno)) }

  /// What the listener's thread holds; the thread alone closes the socket and the pipe's ends.
  private final class Serving: Sendable {
    let recorder: ProbeRecorder
    let socket: Int32
    let wake: Int32
    let path: String
    let state: Locked<(stopped: Bool, wake: Int32)>

    init(recorder: ProbeRecorder, socket: Int32, wake: Int32, path: String, state: Locked<(stopped: Bool, wake: Int32)>)
    {
      self.recorder = recorder
      self.socket = socket
      self.wake = wake
      self.path = path
      self.state = state
    }

    func serve() {
      while true {
        var waiting = [
          pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&waiting, 2, -1)
        if ready < 0, errno == EINTR { continue }
        if ready < 0 || waiting[1].revents != 0 { break }
        let client = accept(socket, nil, nil)
        if client >= 0 {
          answer(client)
          close(client)
          continue
        }
        switch errno {
        case EINTR, ECONNABORTED, EAGAIN: continue
        case EMFILE, ENFILE, ENOMEM, ENOBUFS:
          // Out of descriptors or memory for now: wait a moment (or for stop), then try again.
          var wakeOnly = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
          if poll(&wakeOnly, 1, 100) > 0 { break }
          continue
        default: break
        }
        break
      }
      // Closed under the lock, and only once stopped: `stop()` writes the pipe under it too.
      let unlinking = state.withLock { state -> Bool in
        let wasStopped = state.stopped
        state.stopped = true
        close(socket)
        close(wake)
        close(state.wake)
        return !wasStopped
      }
      if unlinking { unlink(path) }
    }

    /// Reads one request line and answers it, all within the client's time: `trace` gets the
    /// recorder's trace, anything else one line saying what is answered.
    private func answer(_ client: Int32) {
      let deadline = ProbeClient.milliseconds() + ProbeListener.clientMilliseconds
      var request: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: ProbeListener.longestRequest)
      while request.count < ProbeListener.longestRequest, !request.contains(UInt8(ascii: "\n")) {
        guard ProbeClient.wait(client, for: Int16(POLLIN), until: deadline) else { return }
        let room = ProbeListener.longestRequest - request.count
        let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, room, Int32(MSG_DONTWAIT)) }
        guard count > 0 else { return }
        request += buffer[..<count]
      }
      let line = request.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
      let reply =
        String(decoding: line, as: UTF8.self) == "trace"
        ? recorder.trace() : "error: pipesh attach asks for 'trace'; nothing else is answered\n"
      ProbeClient.deliver(Array(reply.utf8), to: client, until: deadline)
    }
  }
}

/// A socket call that failed: its `errno`.
public struct SocketFailure: Error, CustomStringConvertible {
  public let code: Int32
  public var description: String { String(cString: strerror(code)) }
}

/// The client's side of the socket: what `pipesh attach` and the listener's own check use.
public enum ProbeClient {
  /// The longest path a Unix socket may have.
  public static var longestPath: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

  static func address(_ path: String) -> sockaddr_un? {
    var address = sockaddr_un()
    guard path.utf8.count <= longestPath else { return nil }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    return address
  }

  /// A Unix stream socket, closed on exec.
  static func streamSocket() -> Int32 {
    Platform.streamSocket(AF_UNIX)
  }

  /// A connection to the socket at `path`, its reads and writes (and the connecting) bounded by
  /// `timeout` seconds each; or the error (`ECONNREFUSED`: nothing listens there).
  public static func connect(_ path: String, timeout seconds: Int) -> Result<Int32, SocketFailure> {
    guard var address = address(path) else { return .failure(SocketFailure(code: ENAMETOOLONG)) }
    let fd = streamSocket()
    guard fd >= 0 else { return .failure(SocketFailure(code: errno)) }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      close(fd)
      return .failure(SocketFailure(code: code))
    }
    return .success(fd)
  }

  /// Milliseconds of a monotonic clock.
  static func milliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
  }

  /// Waits until `fd` is ready for `events` or `deadline` (milliseconds()) passes: whether it is.
  static func wait(_ fd: Int32, for events: Int16, until deadline: Int) -> Bool {
    while true {
      let left = deadline - milliseconds()
      guard left > 0 else { return false }
      var waiting = [pollfd(fd: fd, events: events, revents: 0)]
      let ready = poll(&waiting, 1, Int32(left))
      if ready < 0, errno == EINTR { continue }
      return ready > 0 && waiting[0].revents & events != 0
    }
  }

  /// Writes all of `bytes` before `deadline`, or as much as the peer takes by then; never raises
  /// SIGPIPE.
  static func deliver(_ bytes: [UInt8], to fd: Int32, until deadline: Int) {
    var sent = 0
    while sent < bytes.count, wait(fd, for: Int16(POLLOUT), until: deadline) {
      let wrote = bytes[sent...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Platform.noSignal | Int32(MSG_DONTWAIT))
      }
      if wrote < 0, errno == EAGAIN || errno == EINTR { continue }
      guard wrote > 0 else { return }
      sent += wrote
    }
  }

  /// Asks the program listening at `path` for its probes' trace: the trace's text, or why not.
  /// Reads at most `limit` bytes, waiting at most `timeout` seconds for each read.
  public static func trace(
    fromSocket path: String, limit: Int, timeout seconds: Int = 10
  ) -> Result<String, ProbeListenerError> {
    // A path that is there but no socket (a saved trace, a folder) is said as what it is.
    var status = stat()
    if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFSOCK {
      let what =
        switch status.st_mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (a named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a file"
        }
      return .failure(
        ProbeListenerError(
          description: "\(path) is \(what), not a socket: give the socket the program's recorder listens on "
            + "(listen(onSocket:)); a saved trace is drawn by pipesh -c 'draw \"F.trace\"'"))
    }
    let fd: Int32
    switch connect(path, timeout: seconds) {
    case .success(let connected): fd = connected
    case .failure(let failure) where failure.code == ECONNREFUSED || failure.code == ENOENT:
      return .failure(
        ProbeListenerError(
          description:
            "nothing listens on \(path): start the program, whose recorder calls listen(onSocket: \"\(path)\")"))
    case .failure(let failure):
      return .failure(ProbeListenerError(description: "cannot connect to \(path): \(failure)"))
    }
    defer { close(fd) }
    deliver(Array("trace\n".utf8), to: fd, until: milliseconds() + seconds * 1000)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let notAProbe = "is it a probe's socket? (a program's recorder answers with its trace at once)"
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 || (count < 0 && errno == ECONNRESET), received.isEmpty {
        return .failure(
          ProbeListenerError(
            description: "\(path) closed the connection without answering: \(notAProbe)"))
      }
      if count == 0 { break }
      guard count > 0 else {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          return .failure(
            ProbeListenerError(
              description: received.isEmpty
                ? "\(path) did not answer in \(seconds) s: \(notAProbe)"
                : "\(path) stopped answering after \(received.count) bytes (nothing for \(seconds) s)"))
        }
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

/// The C library's `connect`, which `ProbeClient.connect` hides by its name.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
  connect(fd, address, length)
}
