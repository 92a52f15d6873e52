import AsyncAlgorithms
import Foundation
import Locking
import PipeshProbe
import Testing

/// `listen(onSocket:)`: the socket file is the user's alone, an earlier run's is replaced, a live
/// one or a file that is not a socket is refused (and never removed), and `stop()` removes it.
@Suite("a recorder listens on a Unix socket")
struct ListenerTests {
  static func path(_ name: String) -> String { "/tmp/pipesh-listener-\(getpid())-\(name).sock" }

  /// What `listen` said when it refused, nil when it listened (and then stops at once).
  static func refusal(_ path: String) -> String? {
    do {
      try ProbeRecorder(clock: SteppingClock()).listen(onSocket: path).stop()
      return nil
    } catch {
      return error.description
    }
  }

  @Test func itListensOnASocketOnlyItsUserCanUseAndStopRemovesIt() throws {
    let path = Self.path("mode")
    let listener = try ProbeRecorder(clock: SteppingClock()).listen(onSocket: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.type] as? FileAttributeType == .typeSocket)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect((try? ProbeClient.connect(path, timeout: 5).get()).map { close($0) } != nil)
    listener.stop()
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect((try? ProbeClient.connect(path, timeout: 5).get()) == nil)
  }

  @Test func aLiveSocketIsRefusedAndAStaleOneReplaced() throws {
    let path = Self.path("live")
    let first = try ProbeRecorder(clock: SteppingClock()).listen(onSocket: path)
    #expect(Self.refusal(path) == "a program already listens on \(path)")
    first.stop()
    // An earlier run that ended without stopping left its socket file: nothing listens there.
    let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    close(stale)
    #expect(FileManager.default.fileExists(atPath: path))
    let second = try ProbeRecorder(clock: SteppingClock()).listen(onSocket: path)
    #expect((try? ProbeClient.connect(path, timeout: 5).get()).map { close($0) } != nil)
    second.stop()
  }

  @Test func aFileThatIsNoSocketIsRefusedAndKept() throws {
    let path = Self.path("file")
    try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
    defer { unlink(path) }
    #expect(Self.refusal(path) == "\(path) exists and is not a socket: choose another path")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
  }

  @Test func aPathTooLongForASocketIsRefused() {
    let path = "/tmp/" + String(repeating: "p", count: 200)
    #expect(Self.refusal(path) == "\(path) is too long for a socket's path (at most 107 bytes)")
  }

  /// Clients fetch the trace over the socket, one after another and from several threads at once,
  /// while the program records and a silent client holds a connection; then `stop()`. Run under
  /// ThreadSanitizer in process (the suite's `thread_targets`), so the listener's serving is too.
  @Test func tracesAreFetchedWhileTheProgramRecords() async throws {
    let path = Self.path("fetch")
    let recorder = ProbeRecorder(clock: ContinuousClock(), keeping: .last(500))
    let listener = try recorder.listen(onSocket: path)
    let silent = try ProbeClient.connect(path, timeout: 5).get()
    // The program records from before the first fetch until every fetch has ended.
    let fetching = Locked(true)
    let (started, start) = AsyncStream.makeStream(of: Void.self)
    let recording = Task.detached {
      var count = 0
      for await _ in (1...Int.max).async.probe("numbers", into: recorder) {
        count += 1
        if count == 1 { start.finish() }
        if !fetching.withLock({ $0 }) { break }
        // Lets the pool's other work run between elements (2 cores: the loop would hold one).
        await Task.yield()
      }
      return count
    }
    for await _ in started {}
    let fetched = Locked<[Result<String, ProbeListenerError>]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<3 {
        let answer = ProbeClient.trace(fromSocket: path, limit: 1 << 24, timeout: 10)
        fetched.withLock { $0.append(answer) }
      }
    }
    fetching.withLock { $0 = false }
    #expect(await recording.value > 0)
    close(silent)
    listener.stop()
    let answers = fetched.withLock { $0 }
    #expect(answers.count == 12)
    for answer in answers {
      let text = try answer.get()
      #expect(text.hasPrefix("{\"pipesh\":\"trace\""), "\(text.prefix(200))")
      #expect(text.contains("numbers"), "a fetch met no recorded event: \(text.prefix(200))")
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// What `pipesh attach` is told of a path that is no probe's socket: a file, and a socket that
  /// closes without answering, are each said as what they are (not as a trace that is empty).
  @Test func aClientIsToldWhatAPathThatIsNoProbesSocketIs() throws {
    let file = Self.path("a-trace")
    try "{}".write(toFile: file, atomically: false, encoding: .utf8)
    defer { unlink(file) }
    let fromFile = ProbeClient.trace(fromSocket: file, limit: 1 << 20, timeout: 5)
    #expect(fromFile.failureText?.hasPrefix("\(file) is a file, not a socket") == true, "\(fromFile)")
    let fifo = Self.path("a-fifo")
    unlink(fifo)
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let fromFIFO = ProbeClient.trace(fromSocket: fifo, limit: 1 << 20, timeout: 5)
    #expect(fromFIFO.failureText?.hasPrefix("\(fifo) is a FIFO (a named pipe), not a socket") == true, "\(fromFIFO)")
    // A server that accepts and closes at once.
    let path = Self.path("closing")
    unlink(path)
    let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(server) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { Array(path.utf8).withUnsafeBytes($0.copyMemory) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    defer { unlink(path) }
    #expect(bound == 0 && listen(server, 1) == 0)
    let closing = Thread { close(accept(server, nil, nil)) }
    closing.start()
    let answer = ProbeClient.trace(fromSocket: path, limit: 1 << 20, timeout: 5)
    #expect(answer.failureText?.hasPrefix("\(path) closed the connection without answering") == true, "\(answer)")
  }
}

extension Result {
  /// The failure's text, nil for a success.
  fileprivate var failureText: String? {
    if case .failure(let failure) = self { "\(failure)" } else { nil }
  }
}
