import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import Platform
import ServeProtocol
import Synchronization

/// `pipesh-serve [--port N] [--pipesh PATH] [--present] [--trace-page PATH --trace-name NAME]`: the web server of `pipesh serve`, which
/// starts it.
struct PipeshServer: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipesh-serve",
    abstract: "The web server of pipesh serve, which starts it: the page on 127.0.0.1, a pipesh run per edit.",
    discussion: """
      pipesh serve --help says what the page does. Exit status: 0 stopped (130 by Ctrl-C), 1 the \
      port is in use or cannot be served on, 2 a usage error or no pipesh executable.
      """
  )

  @Option(help: ArgumentHelp("Listen on port N of 127.0.0.1 (0: any free port).", valueName: "N"))
  var port = 8080

  @Option(
    help: ArgumentHelp(
      "The pipesh executable that runs the pages' scripts (default: the pipesh beside pipesh-serve).",
      valueName: "PATH"))
  var pipesh: String?

  @Flag(help: "Let the browsers watch the session that pipesh feeds to standard input, read-only.")
  var present = false

  @Option(
    help: ArgumentHelp(
      "A page pipesh drew of a saved trace, served at /trace; the file is removed once read.", valueName: "PATH"))
  var tracePage: String?

  @Option(help: ArgumentHelp("The saved trace's name, as the URL's line says it.", valueName: "NAME"))
  var traceName: String?

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port takes a port number from 0 to 65535 (0: any free port)")
    }
  }

  func run() async {
    Platform.exit(await serve(self))
  }
}

/// Writes a line to standard output at once (a pipe would otherwise hold it).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func complain(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Whether something already listens on 127.0.0.1:`port` (binding it as the server would fails).
func portInUse(_ port: Int) -> Bool {
  guard port != 0 else { return false }
  let socket = Platform.streamSocket(AF_INET)
  guard socket >= 0 else { return false }
  defer { close(socket) }
  var reuse: Int32 = 1
  setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  return bound != 0 && errno == EADDRINUSE
}

/// The signal that stopped the server: the exit status follows it (130 for SIGINT, as pipesh).
let stoppedBy = Mutex<Int32>(0)

/// Serves until a signal stops the server: the exit status.
func serve(_ options: PipeshServer) async -> Int32 {
  let pipesh =
    options.pipesh
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pipesh").path
  // Read first, and removed: the file is pipesh's, made for this server alone.
  let tracePage: String?
  if let path = options.tracePage {
    defer { unlink(path) }
    guard let data = FileManager.default.contents(atPath: path), data.count <= Limits.tracePageSize,
      let page = String(data: data, encoding: .utf8)
    else {
      complain(
        "pipesh serve: cannot read the trace's page \(path) (at most \(Limits.tracePageSize >> 20) MiB of UTF-8)")
      return 2
    }
    tracePage = page
  } else {
    tracePage = nil
  }
  guard FileManager.default.isExecutableFile(atPath: pipesh) else {
    complain("pipesh serve: \(pipesh) is not an executable: pass --pipesh PATH")
    return 2
  }
  if portInUse(options.port) {
    complain("pipesh serve: port \(options.port) is in use (try --port 0 for any free port)")
    return 1
  }

  let presenter = options.present ? Presenter() : nil
  let router = Router(context: BasicWebSocketRequestContext.self)
  let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
  let page = Page.html(present: options.present)
  /// `html` at `path`, for this server's own address only.
  func serve(_ html: String, at path: RouterPath) {
    router.get(path) { request, _ in
      if let refusal = Guard.refusal(request) { return refusal }
      return Response(
        status: .ok,
        headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: html)))
    }
  }
  serve(page, at: "/")
  if let tracePage { serve(tracePage, at: "/trace") }
  // A GET /ws that reaches the HTTP router was not upgraded: refused, or not asking to be.
  router.get("/ws") { request, _ in
    if let refusal = Guard.refusal(request) { return refusal }
    return Guard.text(
      .upgradeRequired, "pipesh serve: /ws is a WebSocket: connect with a WebSocket client (the page at / does)",
      headers: [.upgrade: "websocket", .connection: "Upgrade"])
  }
  webSocketRouter.ws(
    "/ws", shouldUpgrade: { request, _ in Guard.refusal(request) == nil ? .upgrade([:]) : .dontUpgrade }
  ) {
    inbound, outbound, _ in
    let connection = OpenConnections.shared.opened(outbound)
    defer { OpenConnections.shared.closed(connection) }
    if let presenter {
      await Viewer.serve(presenter: presenter, inbound: inbound, outbound: outbound)
      return
    }
    let session = Session(pipesh: pipesh, outbound: outbound)
    var failure: (any Error)?
    do {
      for try await message in inbound.messages(maxSize: Limits.hardMessageSize) {
        switch message {
        case .text(let text):
          await session.received(text)
        case .binary:
          await session.refused(.binary)
        }
      }
    } catch {
      // The connection broke, or sent a message over the hard limit: its session ends.
      failure = error
    }
    await session.close()
    // Thrown on, so that the WebSocket closes with the error's status (1009 for a message over the
    // limit) rather than 1000 as if all were well.
    if let failure { throw failure }
  }

  var logger = Logger(label: "pipesh-serve")
  logger.logLevel = .critical
  let app = Application(
    router: router,
    server: .http1WebSocketUpgrade(
      webSocketRouter: webSocketRouter,
      configuration: .init(
        ws: .init(maxFrameSize: Limits.hardMessageSize, autoPing: .disabled, closeTimeout: .seconds(1)))),
    configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "pipesh-serve"),
    onServerRunning: { channel in
      let port = channel.localAddress?.port ?? options.port
      Guard.port.withLock { $0 = port }
      say("pipesh serve: http://127.0.0.1:\(port)/")
      if tracePage != nil {
        say("pipesh serve: \(options.traceName ?? "the trace") drawn at http://127.0.0.1:\(port)/trace")
      }
      if let presenter {
        say("pipesh serve: presenting this shell's session read-only")
        Task {
          await presenter.readFeed()
          // Every viewer has been told; give their connections a moment to send it, then stop.
          for _ in 0..<40 where await presenter.viewerCount > 0 {
            try? await Task.sleep(for: .milliseconds(50))
          }
          try? await Task.sleep(for: .milliseconds(200))
          PipeshRun.killAll()
          exit(0)
        }
      }
    },
    logger: logger
  )
  let signals = [SIGINT, SIGTERM].map { number in
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number)
    source.setEventHandler {
      stoppedBy.withLock { $0 = number }
      PipeshRun.killAll()
      Task { await OpenConnections.shared.closeAll() }
      // The server stops gracefully (ServiceLifecycle has the same signals); a connection that
      // does not close in time does not hold the exit.
      DispatchQueue.global().asyncAfter(deadline: .now() + 3) {
        PipeshRun.killAll()
        exit(number == SIGINT ? 130 : 0)
      }
    }
    source.resume()
    return source
  }
  do {
    try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
  } catch {
    complain("pipesh serve: cannot serve on 127.0.0.1:\(options.port): \(error)")
    return 1
  }
  _ = signals
  PipeshRun.killAll()
  return stoppedBy.withLock { $0 } == SIGINT ? 130 : 0
}

/// Only pages this server served may talk to it: a request whose `Origin` is another site's (any
/// web page can open a WebSocket to 127.0.0.1) or whose `Host` is not this server's address (a
/// name rebound to 127.0.0.1 by another site's DNS) is refused. A request without `Origin` (a raw
/// client, not a browser page) is let in.
enum Guard {
  /// The port the server listens on, once it does.
  static let port = Mutex<Int>(0)

  static func refusal(_ request: Request) -> Response? {
    let port = Guard.port.withLock { $0 }
    let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
    if let host = request.head.authority, !hosts.contains(host.lowercased()) {
      return text(
        .forbidden,
        "pipesh serve: refused: the Host '\(host)' is not this server's address; open http://127.0.0.1:\(port)/")
    }
    if let origin = request.headers[.origin], !hosts.map({ "http://" + $0 }).contains(origin.lowercased()) {
      return text(
        .forbidden,
        "pipesh serve: refused: a page from '\(origin)' may not connect; only the page at http://127.0.0.1:\(port)/ may"
      )
    }
    return nil
  }

  static func text(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
    var fields = headers
    fields[.contentType] = "text/plain; charset=utf-8"
    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
  }
}

enum Limits {
  /// Frames and messages over this close the connection (WebSocket status 1009); those over
  /// `ClientMessage.sizeLimit` but under this are refused with an error message.
  static let hardMessageSize = 8 << 20
  /// The largest trace page the server takes from pipesh (a trace file is at most 256 MiB; its
  /// drawing is far smaller).
  static let tracePageSize = 64 << 20
}

/// Parses the arguments and serves. A function: in top-level code `command.run()` would be
/// ParsableCommand's synchronous `run()`, which prints the help.
func main() async -> Never {
  do {
    let command = try await PipeshServer.asyncParse()
    await command.run()
  } catch {
    // As pipesh's: --help on standard output, status 0; a usage error on standard error, status 2.
    let message = PipeshServer.fullMessage(for: error)
    if PipeshServer.exitCode(for: error) == .success {
      say(message)
      exit(0)
    }
    complain(message)
    exit(2)
  }
  exit(0)
}

await main()
