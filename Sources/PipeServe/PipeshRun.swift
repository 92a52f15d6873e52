import Foundation
import Launch
import Synchronization

/// One run of pipesh for a page: in a temporary directory of its own (the script written there as
/// `script.pipe`, removed afterwards), standard input `/dev/null`, bounded in wall-clock time and in
/// output. Cancelling the task that awaits it kills the process.
struct PipeshRun {
  /// How a run ended when it did not end by itself.
  enum Stop: Equatable {
    /// It ran past the wall-clock limit and was killed.
    case timedOut
    /// It printed more than the output limit and was killed.
    case tooMuchOutput
  }

  struct Outcome {
    let status: Int32
    let stdout: String
    let stderr: String
    let milliseconds: Int
    let stop: Stop?
  }

  /// 10 s, or `PIPESH_SERVE_RUN_SECONDS` (the tests shorten it).
  static let wallClockLimit: Duration = .seconds(
    ProcessInfo.processInfo.environment["PIPESH_SERVE_RUN_SECONDS"].flatMap { Int($0) }.map { max($0, 1) } ?? 10)
  static let outputLimit = 4 << 20

  /// Processes running now and their directories, so that a stopping server kills them all and
  /// leaves no directory behind.
  static let running = Mutex<[ChildProcess: String]>([:])

  let pipesh: String
  /// pipesh's arguments before the script file's name.
  let arguments: [String]

  /// Runs pipesh on `script`. Throws `CancellationError` when the task was cancelled (a newer
  /// edit: the process is killed), or why pipesh could not be started.
  func run(_ script: String) async throws -> Outcome {
    try await RunSlots.shared.acquire()
    defer { RunSlots.shared.release() }
    try Task.checkCancellation()
    guard !Self.stopping.withLock({ $0 }) else { throw CancellationError() }
    let directory = try Self.temporaryDirectory()
    defer {
      for file in ["script.pipe", ".stdout", ".stderr"] { unlink(directory + "/" + file) }
      if rmdir(directory) != 0 { try? FileManager.default.removeItem(atPath: directory) }
    }
    let outputFile = directory + "/.stdout"
    let errorFile = directory + "/.stderr"
    try Self.write(script, to: directory + "/script.pipe")
    let start = ContinuousClock.now
    let launch = Launch(
      pipesh, arguments: [pipesh] + arguments + ["script.pipe"], environment: Self.environment, directory: directory,
      standardInput: .nullDevice, standardOutput: .file(outputFile), standardError: .file(errorFile),
      ownProcessGroup: true, closesOtherDescriptors: true)
    let child = try launch.start().get()
    let stopped = Self.running.withLock { running in
      running[child] = directory
      return Self.stopping.withLock { $0 }
    }
    if stopped { Self.kill(child) }
    defer { Self.running.withLock { _ = $0.removeValue(forKey: child) } }
    let stop = Mutex<Stop?>(nil)
    let watchdog = Task {
      while !Task.isCancelled {
        try await Task.sleep(for: .milliseconds(50))
        var info = stat()
        let size = stat(outputFile, &info) == 0 ? Int(info.st_size) : 0
        let reason: Stop? =
          ContinuousClock.now - start > Self.wallClockLimit ? .timedOut : size > Self.outputLimit ? .tooMuchOutput : nil
        if let reason {
          stop.withLock { $0 = reason }
          Self.kill(child)
          return
        }
      }
    }
    let status = await withTaskCancellationHandler {
      await child.termination().status
    } onCancel: {
      Self.kill(child)
    }
    watchdog.cancel()
    try Task.checkCancellation()
    let milliseconds = Int((ContinuousClock.now - start) / .milliseconds(1))
    return Outcome(
      status: status, stdout: Self.read(outputFile), stderr: Self.read(errorFile), milliseconds: milliseconds,
      stop: stop.withLock { $0 })
  }

  /// The server's environment, with colour off and views 100 columns wide.
  static let environment: [String: String] = {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["COLUMNS"] = "100"
    return environment
  }()

  /// Kills the run's process group (pipesh and anything it started).
  static func kill(_ child: ChildProcess) {
    child.signal(SIGKILL, group: true)
  }

  /// The file's first `outputLimit` bytes as text (nothing for a file that cannot be read).
  static func read(_ path: String) -> String {
    guard let file = fopen(path, "rb") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < outputLimit {
      let count = fread(&chunk, 1, chunk.count, file)
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes.prefix(outputLimit), as: UTF8.self)
  }

  static func write(_ text: String, to path: String) throws {
    guard let file = fopen(path, "wb") else { throw RunFailure.cannotWrite(path) }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw RunFailure.cannotWrite(path) }
  }

  enum RunFailure: Error, CustomStringConvertible {
    case cannotWrite(String)

    var description: String {
      switch self {
      case .cannotWrite(let path): "cannot write \(path)"
      }
    }
  }

  /// A fresh directory under the system's temporary directory.
  static func temporaryDirectory() throws -> String {
    let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((base + "/pipesh-serve-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }
    }
    guard made != nil else { throw RunFailure.cannotWrite(base) }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether the server is stopping: no run starts any more.
  static let stopping = Mutex(false)

  /// Kills every run still going, and any that would start (the server is stopping).
  static func killAll() {
    stopping.withLock { $0 = true }
    for (child, directory) in running.withLock({ $0 }) {
      kill(child)
      try? FileManager.default.removeItem(atPath: directory)
    }
  }
}
