import Foundation
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

  /// Processes running now, so that a stopping server kills them all.
  static let running = Mutex<Set<pid_t>>([])

  let pipesh: String
  /// pipesh's arguments before the script file's name.
  let arguments: [String]

  /// Runs pipesh on `script`; nil when the task was cancelled (a newer edit) or pipesh could not
  /// be started (`failure` says why).
  func run(_ script: String) async throws -> Outcome {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let scriptFile = directory + "/script.pipe"
    let outputFile = directory + "/.stdout"
    let errorFile = directory + "/.stderr"
    try Data(script.utf8).write(to: URL(fileURLWithPath: scriptFile))
    for file in [outputFile, errorFile] {
      guard FileManager.default.createFile(atPath: file, contents: nil) else { throw RunFailure.cannotWrite(file) }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: pipesh)
    process.arguments = arguments + ["script.pipe"]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["COLUMNS"] = "100"
    process.environment = environment
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    process.standardOutput = FileHandle(forWritingAtPath: outputFile)
    process.standardError = FileHandle(forWritingAtPath: errorFile)
    let (ended, ending) = AsyncStream<Int32>.makeStream()
    process.terminationHandler = { process in
      ending.yield(process.terminationStatus)
      ending.finish()
    }
    let start = ContinuousClock.now
    try process.run()
    let pid = process.processIdentifier
    Self.running.withLock { _ = $0.insert(pid) }
    defer { Self.running.withLock { _ = $0.remove(pid) } }
    let stop = Mutex<Stop?>(nil)
    let watchdog = Task {
      while !Task.isCancelled {
        try await Task.sleep(for: .milliseconds(50))
        let size = (try? FileManager.default.attributesOfItem(atPath: outputFile)[.size] as? Int) ?? 0
        let reason: Stop? =
          ContinuousClock.now - start > Self.wallClockLimit ? .timedOut : size > Self.outputLimit ? .tooMuchOutput : nil
        if let reason {
          stop.withLock { $0 = reason }
          kill(pid, SIGKILL)
          return
        }
      }
    }
    let status = await withTaskCancellationHandler {
      var status: Int32 = -1
      for await ending in ended { status = ending }
      return status
    } onCancel: {
      kill(pid, SIGKILL)
    }
    watchdog.cancel()
    try Task.checkCancellation()
    let milliseconds = Int((ContinuousClock.now - start) / .milliseconds(1))
    let output = (try? Data(contentsOf: URL(fileURLWithPath: outputFile))) ?? Data()
    let errors = (try? Data(contentsOf: URL(fileURLWithPath: errorFile))) ?? Data()
    return Outcome(
      status: status, stdout: String(decoding: output.prefix(Self.outputLimit), as: UTF8.self),
      stderr: String(decoding: errors.prefix(Self.outputLimit), as: UTF8.self), milliseconds: milliseconds,
      stop: stop.withLock { $0 })
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

  /// Kills every run still going (the server is stopping).
  static func killAll() {
    for pid in running.withLock({ $0 }) { kill(pid, SIGKILL) }
  }
}
