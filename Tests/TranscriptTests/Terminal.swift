import Foundation
import Testing

/// A pipesh running in a pseudo-terminal of its own: the test holds the master side, pipesh gets
/// the slave as its standard input, output and controlling terminal (through util-linux `setsid -w -c`,
/// which also hands back pipesh's exit status).
final class Terminal: @unchecked Sendable {
  // @unchecked: `output` and `consumed` are guarded by `condition`.
  private let process = Process()
  /// The master side: read by `reader`, written by `type`, closed by `deinit` once `reader` has
  /// stopped (a FileHandle's readabilityHandler, cleared while it ran, let the handle close the
  /// descriptor under libdispatch's feet: a crash in a test's cleanup, now and then).
  private let master: Int32
  private let reader: any DispatchSourceRead
  /// Signalled by `reader`'s cancel handler: nothing reads the master any more.
  private let readerStopped = DispatchSemaphore(value: 0)
  private let condition = NSCondition()
  private var output = ""
  /// How many UTF-8 bytes of `output` earlier expectations have matched.
  private var consumed = 0

  /// Everything the terminal showed so far.
  var shown: String {
    condition.lock()
    defer { condition.unlock() }
    return output
  }

  struct Timeout: Error, CustomStringConvertible {
    let expected: String
    let output: String
    var description: String { "did not see \(expected.debugDescription) in:\n\(output)" }
  }

  struct NoTerminal: Error {}

  /// With `colour`, pipesh's environment has no `NO_COLOR` (the other tests read plain text).
  /// `environment`: variables added to pipesh's.
  init(
    history: String? = nil, arguments: [String] = [], colour: Bool = false, environment extra: [String: String] = [:]
  ) throws {
    let historyPath =
      history ?? FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-history-\(UUID())").path
    // posix_openpt and friends are not visible from Swift's Glibc module; this is what they do on
    // Linux: open the multiplexer, unlock the new slave, ask for its number.
    let masterFD = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard masterFD >= 0, ioctl(masterFD, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
      ioctl(masterFD, 0x8004_5430 /* TIOCGPTN */, &number) == 0
    else { throw NoTerminal() }
    let name = "/dev/pts/\(number)"
    var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(masterFD, UInt(TIOCSWINSZ), &size)
    let slave = FileHandle(forUpdatingAtPath: name)
    guard let slave else { throw NoTerminal() }
    master = masterFD
    reader = DispatchSource.makeReadSource(
      fileDescriptor: masterFD, queue: DispatchQueue(label: "pipesh-test-terminal"))
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    process.arguments = ["-w", "-c", Pipesh.executable.path] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["PIPESH_HISTORY"] = historyPath
    environment["TERM"] = "xterm"
    environment["EDITRC"] = "/dev/null"
    environment["NO_COLOR"] = colour ? nil : "1"
    environment["COLUMNS"] = nil
    environment.merge(extra) { $1 }
    process.environment = environment
    process.standardInput = slave
    process.standardOutput = slave
    process.standardError = slave
    let reader = reader
    let stopped = readerStopped
    reader.setEventHandler { [weak self] in
      // The master reports EIO once pipesh (every holder of the slave) has exited: reading stops.
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(masterFD, &buffer, buffer.count)
      guard let self, count > 0 else {
        reader.cancel()
        return
      }
      let data = Data(buffer[0..<count])
      // Carriage returns depend on the terminal's output settings, not on pipesh: drop them.
      let text = String(decoding: data, as: UTF8.self).unicodeScalars.filter { $0 != "\r" }
      self.condition.lock()
      self.output += String(String.UnicodeScalarView(text))
      self.condition.broadcast()
      self.condition.unlock()
    }
    reader.setCancelHandler { stopped.signal() }
    reader.resume()
    try ClosingPipe.spawning.withLock { try process.run() }
    try slave.close()
  }

  deinit {
    if process.isRunning { process.terminate() }
    reader.cancel()
    readerStopped.wait()
    close(master)
  }

  /// Resizes the terminal, as a window resized would (the kernel tells the process).
  func resize(columns: UInt16, rows: UInt16) {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  func type(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Types a line at the prompt and waits for the next prompt (any job count).
  func enter(_ line: String) throws {
    type(line + "\r")
    try expect("]> ")
  }

  /// Waits until `text` appears after what earlier expectations matched.
  func expect(_ text: String, within seconds: Double = 60) throws {
    let deadline = Date().addingTimeInterval(seconds)
    condition.lock()
    defer { condition.unlock() }
    while true {
      let rest = String(decoding: output.utf8.dropFirst(consumed), as: UTF8.self)
      if let range = rest.range(of: text) {
        consumed += rest.utf8[..<range.upperBound].count
        return
      }
      if !condition.wait(until: deadline) {
        throw Timeout(expected: text, output: output)
      }
    }
  }

  /// Waits until a line after what earlier expectations matched satisfies `test` (lines of a
  /// full-screen view: split at line ends and at its erase-to-end-of-line codes).
  func expectLine(_ what: String, within seconds: Double = 60, _ test: (String) -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    condition.lock()
    defer { condition.unlock() }
    while true {
      let rest = String(decoding: output.utf8.dropFirst(consumed), as: UTF8.self)
      let lines = rest.replacingOccurrences(of: "\u{1B}[K", with: "\n").split(separator: "\n")
      if let line = lines.first(where: { test(String($0)) }), let range = rest.range(of: String(line)) {
        consumed += rest.utf8[..<range.upperBound].count
        return
      }
      if !condition.wait(until: deadline) {
        throw Timeout(expected: what, output: output)
      }
    }
  }

  /// Types Ctrl-C until `text` appears: one typed before the command began to wait finds nothing
  /// to stop (the shell is still between reading the line and running it).
  func interrupt(until text: String) throws {
    for _ in 0..<59 {
      type("\u{3}")
      if (try? expect(text, within: 1)) != nil { return }
    }
    type("\u{3}")
    try expect(text, within: 1)
  }

  func expectExit(_ status: Int32) throws {
    let exited = DispatchSemaphore(value: 0)
    let process = self.process
    DispatchQueue.global().async {
      process.waitUntilExit()
      exited.signal()
    }
    guard exited.wait(timeout: .now() + 60) == .success else {
      var settings = termios()
      tcgetattr(master, &settings)
      throw Timeout(expected: "exit (lflag \(String(settings.c_lflag, radix: 16)))", output: output)
    }
    #expect(process.terminationStatus == status)
  }
}
