import Foundation
import Testing

/// Headless Chromium (Debian's `chromium-headless-shell`) driven over the DevTools protocol through
/// `--remote-debugging-pipe`: JSON messages, each ended by a NUL byte, written to the browser's file
/// descriptor 3 and read from its 4. No WebSocket client, no package from outside.
///
/// `@unchecked Sendable`: the reply table and the event log are only touched under `lock`; the
/// write end is written by one caller at a time (under `writing`).
final class Browser: @unchecked Sendable {
  static let executable = "/usr/bin/chromium-headless-shell"

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let pid: pid_t
  private let toBrowser: Int32
  private let fromBrowser: Int32
  private let profile: URL
  private let lock = NSCondition()
  private let writing = NSLock()
  private var nextId = 1
  private var replies: [Int: [String: Any]] = [:]
  private var eventLog: [[String: Any]] = []
  private var closed = false

  init() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
      throw Failure(description: "\(Self.executable) is missing: run Scripts/setup --test")
    }
    profile = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-serve-tests-\(UUID())")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    let made = Spawning.lock.withLock {
      guard pipe(&input) == 0, pipe(&output) == 0 else { return false }
      // Ours only: a process started meanwhile must not hold the browser's pipes.
      for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      return true
    }
    guard made else { throw Failure(description: "pipe failed: \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 3)
    posix_spawn_file_actions_adddup2(&actions, output[1], 4)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [
      Self.executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
      "--user-data-dir=\(profile.path)", "--window-size=1400,1000", "about:blank",
    ]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // A process group of its own, so that its helper processes end with it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    var child: pid_t = 0
    let spawned = Spawning.lock.withLock {
      posix_spawn(&child, Self.executable, &actions, &attributes, &argv, environ)
    }
    Glibc.close(input[0])
    Glibc.close(output[1])
    guard spawned == 0 else { throw Failure(description: "cannot start \(Self.executable): \(spawned)") }
    pid = child
    toBrowser = input[1]
    fromBrowser = output[0]
    let reader = Thread { [self] in readMessages() }
    reader.start()
  }

  deinit {
    close()
  }

  /// Ends the browser.
  func close() {
    lock.lock()
    let wasClosed = closed
    closed = true
    lock.broadcast()
    lock.unlock()
    guard !wasClosed else { return }
    kill(-pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    Glibc.close(toBrowser)
    try? FileManager.default.removeItem(at: profile)
  }

  private func readMessages() {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(fromBrowser, &chunk, chunk.count)
      if count <= 0 { break }
      buffer.append(contentsOf: chunk[0..<count])
      while let end = buffer.firstIndex(of: 0) {
        let message = Data(buffer[..<end])
        buffer.removeSubrange(...end)
        guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { continue }
        lock.lock()
        if let id = object["id"] as? Int {
          replies[id] = object
        } else {
          eventLog.append(object)
        }
        lock.broadcast()
        lock.unlock()
      }
    }
    Glibc.close(fromBrowser)
    lock.lock()
    closed = true
    lock.broadcast()
    lock.unlock()
  }

  /// Sends a command and waits (at most `timeout` seconds) for its result.
  @discardableResult
  func send(
    _ method: String, _ parameters: [String: Any] = [:], session: String? = nil, timeout: Double = 60
  ) throws -> [String: Any] {
    lock.lock()
    let id = nextId
    nextId += 1
    lock.unlock()
    var message: [String: Any] = ["id": id, "method": method, "params": parameters]
    if let session { message["sessionId"] = session }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    try writing.withLock {
      var written = 0
      while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        guard count > 0 else { throw Failure(description: "the browser's pipe closed") }
        written += count
      }
    }
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while replies[id] == nil {
      if closed { throw Failure(description: "the browser ended during \(method)") }
      guard lock.wait(until: deadline) else { throw Failure(description: "no answer to \(method) in \(timeout) s") }
    }
    let reply = replies.removeValue(forKey: id) ?? [:]
    if let error = reply["error"] as? [String: Any] {
      throw Failure(description: "\(method): \(error["message"] as? String ?? "\(error)")")
    }
    return reply["result"] as? [String: Any] ?? [:]
  }

  /// The events of `method` received so far (for a tab's session, when given).
  func events(_ method: String, session: String? = nil) -> [[String: Any]] {
    lock.lock()
    defer { lock.unlock() }
    return eventLog.filter {
      $0["method"] as? String == method && (session == nil || $0["sessionId"] as? String == session)
    }
  }

  /// A new tab showing `url`, with its DevTools session attached.
  func open(_ url: String, network: Bool = false) throws -> Tab {
    let target = try send("Target.createTarget", ["url": "about:blank"])
    let targetId = try #require(target["targetId"] as? String)
    let attached = try send("Target.attachToTarget", ["targetId": targetId, "flatten": true])
    let session = try #require(attached["sessionId"] as? String)
    let tab = Tab(browser: self, session: session)
    try send("Page.enable", session: session)
    try send("Runtime.enable", session: session)
    if network { try send("Network.enable", session: session) }
    try send("Page.navigate", ["url": url], session: session)
    return tab
  }
}

/// One page in the browser.
struct Tab {
  let browser: Browser
  let session: String

  struct ScriptFailure: Error, CustomStringConvertible {
    let description: String
  }

  /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
  @discardableResult
  func evaluate(_ expression: String, timeout: Double = 60) throws -> Any? {
    let reply = try browser.send(
      "Runtime.evaluate",
      ["expression": expression, "returnByValue": true, "awaitPromise": true], session: session,
      timeout: timeout + 5)
    if let exception = reply["exceptionDetails"] as? [String: Any] {
      let text = (exception["exception"] as? [String: Any])?["description"] as? String ?? "\(exception)"
      throw ScriptFailure(description: text)
    }
    return (reply["result"] as? [String: Any])?["value"]
  }

  /// Waits, at most `timeout` seconds, until `condition` (JavaScript) is truthy in the page;
  /// returns its value. A condition that never holds fails the test with the page's state.
  @discardableResult
  func waitFor(_ condition: String, timeout: Double = 45) throws -> Any? {
    let milliseconds = Int(timeout * 1000)
    return try evaluate(
      """
      new Promise((resolve, reject) => {
        const start = performance.now();
        const check = () => {
          let value;
          try { value = (\(condition)); } catch (error) { value = undefined; }
          if (value) resolve(value);
          else if (performance.now() - start > \(milliseconds))
            reject(new Error('timed out waiting for: ' + \(Self.quoted(condition)) + '; status: ' + (document.getElementById('status')?.textContent ?? '') + '; result: ' + (document.getElementById('result')?.textContent ?? '').slice(0, 400)));
          else setTimeout(check, 20);
        };
        check();
      })
      """, timeout: timeout)
  }

  /// Replaces the editor's text as a person typing it would (focus, select all, insert).
  func type(_ text: String) throws {
    try evaluate("document.getElementById('editor').focus(); document.getElementById('editor').select(); true")
    try browser.send("Input.insertText", ["text": text], session: session)
  }

  func mouse(_ type: String, x: Double, y: Double, clickCount: Int = 1) throws {
    try browser.send(
      "Input.dispatchMouseEvent",
      [
        "type": type, "x": x, "y": y, "button": "left", "buttons": type == "mouseReleased" ? 0 : 1,
        "clickCount": clickCount,
      ],
      session: session)
  }

  static func quoted(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }
}
