import Dispatch
import Launch
import PipeSession
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh serve [--port N] [--present] [F.trace]`: the page in the browser is served by `pipesh-serve`, an
/// executable of its own beside pipesh's (so that pipesh does not link the web server, and a
/// page's run is a process the server can kill). pipesh finds it, and either becomes it (`exec`),
/// or, with `--present`, starts it with a pipe on its standard input and runs the interactive shell,
/// writing what the session shows to that pipe (`PresentFeed`).
public enum Serve {
  public struct Options: Sendable {
    public var port: Int
    public var present: Bool
    /// A saved trace whose drawing the server also serves, at `/trace`.
    public var trace: String?

    public init(port: Int, present: Bool, trace: String? = nil) {
      self.port = port
      self.present = present
      self.trace = trace
    }
  }

  /// `PIPESH_SERVE`: the server's executable, instead of the `pipesh-serve` beside pipesh (tests).
  static let serverVariable = "PIPESH_SERVE"

  /// Runs `pipesh serve`; returns only when it did not become the server: its status.
  public static func run(_ options: Options, virtualTime: Bool) async -> Int32 {
    guard let own = ownExecutable() else {
      FileOutput.error("pipesh serve: cannot tell where pipesh's own executable is")
      return 2
    }
    let server = getenv(serverVariable).map { String(cString: $0) } ?? directory(of: own) + "/pipesh-serve"
    guard access(server, X_OK) == 0 else {
      FileOutput.error(
        "pipesh serve: \(server) is missing: build it with swift build -c release --product pipesh-serve "
          + "(swift build --product pipesh-serve beside a debug pipesh), or run Scripts/pipesh serve, which builds it")
      return 2
    }
    var arguments = [server, "--pipesh", own, "--port", String(options.port)]
    var tracePage: String?
    if let trace = options.trace {
      // Drawn here, before the server starts: the server reads no file a page names, only this
      // page, from a file of pipesh's that it removes once read.
      guard let page = drawnTrace(trace) else { return 2 }
      switch temporaryFile(page) {
      case .success(let path): tracePage = path
      case .failure(let reason):
        FileOutput.error("pipesh serve: cannot keep the trace's drawing for the server: \(reason)")
        return 2
      }
      // Each with its value after `=`: a name that starts with `-` is still the value.
      arguments += ["--trace-page=" + (tracePage ?? ""), "--trace-name=" + trace]
    }
    guard options.present else {
      // The server starts as a program does: no signal blocked or ignored (pipesh ignores SIGPIPE).
      var none = sigset_t()
      sigemptyset(&none)
      sigprocmask(SIG_SETMASK, &none, nil)
      for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
      let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      execv(server, argv)
      let reason = String(cString: strerror(errno))
      argv.forEach { free($0) }
      if let tracePage { unlink(tracePage) }
      FileOutput.error("pipesh serve: cannot start \(server): \(reason)")
      return 2
    }
    arguments.append("--present")
    return await present(server, arguments, virtualTime: virtualTime)
  }

  /// `--present`: starts the server with a pipe on its standard input (the feed) and one on its
  /// standard output; prints its URL line (and the line after it) and runs the interactive shell,
  /// feeding it. A server that ends before its URL (a port in use, said on its standard error,
  /// which is pipesh's) ends pipesh with its status.
  private static func present(_ server: String, _ arguments: [String], virtualTime: Bool) async -> Int32 {
    guard isatty(0) == 1 else {
      FileOutput.error("pipesh serve --present presents an interactive session: run it at a terminal")
      return 2
    }
    var feed: [Int32] = [0, 0]
    var said: [Int32] = [0, 0]
    guard pipe(&feed) == 0, pipe(&said) == 0 else {
      FileOutput.error("pipesh serve: cannot make a pipe: \(String(cString: strerror(errno)))")
      return 2
    }
    // pipesh's ends are not the child's, nor a job's.
    for descriptor in [feed[1], said[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    let spawned = Launch(
      server, arguments: arguments, standardInput: .descriptor(feed[0]), standardOutput: .descriptor(said[1]),
      ownProcessGroup: true
    ).start()
    _ = close(feed[0])
    _ = close(said[1])
    let child: ChildProcess
    switch spawned {
    case .success(let started): child = started
    case .failure(let failure):
      FileOutput.error("pipesh serve: \(failure)")
      return 2
    }
    let reader = LineReaderOfChild(descriptor: said[0])
    guard let url = reader.line() else {
      _ = close(feed[1])
      return child.wait()?.status ?? 1
    }
    Console.writeNow(url + "\n")
    // The server's second line says it presents; it comes at once after the first.
    if let next = reader.line(within: 2000) { Console.writeNow(next + "\n") }
    reader.forwardTheRest()

    let console = Console()
    let shell = Shell(console: console, interactive: true, virtualTime: virtualTime)
    let presenting = PresentFeed(descriptor: feed[1]) { message in console.line(message, to: .error) }
    shell.presentFeed = presenting
    let status = await InteractiveShell(shell: shell).run()
    console.flush()
    presenting.close()
    // The server ends when its feed does; one that has not after a while is stopped.
    if waitFor(child, within: 5) == nil {
      child.signal(SIGTERM)
      _ = child.wait()
    }
    return status
  }

  /// The page `draw "F.trace" to: "F.html"` writes for `path`, or nil (the error said on standard
  /// error, as `draw`'s).
  private static func drawnTrace(_ path: String) -> String? {
    let console = Console()
    let shell = Shell(console: console, interactive: false, virtualTime: false)
    defer { shell.engine.close() }
    let page = shell.savedTracePage(path)
    console.flush()
    return page
  }

  /// Writes `page` to a new file of its own (mode 0600, `mkstemp`'s) in the temporary directory:
  /// its path, or why it could not.
  private static func temporaryFile(_ page: String) -> Result<String, TemporaryFileFailure> {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((directory + "/pipesh-trace-XXXXXX").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { return .failure(TemporaryFileFailure(errno)) }
    defer { _ = close(descriptor) }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let bytes = Array(page.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let failure = TemporaryFileFailure(errno)
        unlink(path)
        return .failure(failure)
      }
      written += count
    }
    return .success(path)
  }

  struct TemporaryFileFailure: Error, CustomStringConvertible {
    let description: String

    init(_ code: Int32) {
      description = String(cString: strerror(code))
    }
  }

  /// Waits for `child` `seconds` at most: its exit status (128 + N for a signal N; 1 for a child
  /// something else reaped), nil when it has not ended in time.
  private static func waitFor(_ child: ChildProcess, within seconds: Int) -> Int32? {
    for _ in 0...(seconds * 20) {
      switch child.poll() {
      case .ended(let termination): return termination.status
      case .lost: return 1
      case .running: usleep(50_000)
      }
    }
    return nil
  }

  /// pipesh's own executable, as an absolute path.
  private static func ownExecutable() -> String? {
    Platform.executablePath
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

/// Reads the lines the server writes to its standard output.
private final class LineReaderOfChild: @unchecked Sendable {
  // @unchecked: used by one thread at a time (the caller, then the forwarding thread it starts).
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The next line, waiting for it (`within` milliseconds at most, when given); nil at the end of
  /// the output or when none came in time.
  func line(within milliseconds: Int32? = nil) -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        defer { buffer.removeSubrange(...newline) }
        return String(decoding: buffer[..<newline], as: UTF8.self)
      }
      if let milliseconds {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, milliseconds) > 0 else { return nil }
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(descriptor, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk[..<count]
    }
  }

  /// Anything more the server writes to its standard output goes to pipesh's, so that it never
  /// waits on a full pipe.
  func forwardTheRest() {
    DispatchQueue(label: "pipesh.serve-output").async { [self] in
      while let line = line() { Console.writeNow(line + "\n") }
      _ = close(descriptor)
    }
  }
}
