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

  /// Processes running now and their directories, so that a stopping server kills them all and
  /// leaves no directory behind.
  static let running = Mutex<[pid_t: String]>([:])

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
    let pid = try Self.spawn(
      pipesh, arguments + ["script.pipe"], in: directory, output: outputFile, errors: errorFile,
      environment: Self.environment)
    let stopped = Self.running.withLock { running in
      running[pid] = directory
      return Self.stopping.withLock { $0 }
    }
    if stopped { Self.kill(pid) }
    defer { Self.running.withLock { _ = $0.removeValue(forKey: pid) } }
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
          Self.kill(pid)
          return
        }
      }
    }
    let status = await withTaskCancellationHandler {
      await Self.waitForExit(pid)
    } onCancel: {
      Self.kill(pid)
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

  /// Starts `executable` in a process group of its own, in `directory`, standard input
  /// `/dev/null`, its output and errors into the two files, no other descriptor of the server's,
  /// and the signals the server ignores back to their defaults. (Foundation's `Process` crashed
  /// under 50 sessions starting runs at once; `posix_spawn` opens nothing in the server.)
  static func spawn(
    _ executable: String, _ arguments: [String], in directory: String, output: String, errors: String,
    environment: [String: String]
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = spawnActionChangeDirectory(&actions, directory)
    _ = spawnActionCloseFrom(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw RunFailure.cannotStart(executable, String(cString: strerror(spawned))) }
    return pid
  }

  /// The process's exit status once it has ended (128 + the signal for one killed).
  static func waitForExit(_ pid: pid_t) async -> Int32 {
    await withCheckedContinuation { continuation in Reaper.shared.wait(for: pid, continuation) }
  }

  /// Kills the run's process group (pipesh and anything it started).
  static func kill(_ pid: pid_t) {
    _ = Glibc.kill(-pid, SIGKILL)
    _ = Glibc.kill(pid, SIGKILL)
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
    case cannotStart(String, String)

    var description: String {
      switch self {
      case .cannotWrite(let path): "cannot write \(path)"
      case .cannotStart(let path, let reason): "cannot start \(path): \(reason)"
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
    for (pid, directory) in running.withLock({ $0 }) {
      kill(pid)
      try? FileManager.default.removeItem(atPath: directory)
    }
  }
}

// glibc's (2.29 and 2.34 on) GNU extensions, which Swift's Glibc module does not show (they are
// declared under _GNU_SOURCE): the child's directory, and closing every descriptor from 3 up.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
func spawnActionChangeDirectory(
  _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
func spawnActionCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// The one thread that waits for the server's children (the runs; the server starts no other
/// process) and hands each exit status to whoever waits for that process: no thread per run, and
/// a status that comes before its waiter is kept for it.
final class Reaper: Sendable {
  static let shared = Reaper()

  /// Who waits for which process, and the statuses that came first.
  private struct State {
    var waiting: [pid_t: CheckedContinuation<Int32, Never>] = [:]
    var ended: [pid_t: Int32] = [:]
  }

  private let state = Mutex(State())
  /// Signalled when a child is started, so the thread waits again.
  private let started = DispatchSemaphore(value: 0)

  private init() {
    let thread = Thread { [self] in reap() }
    thread.start()
  }

  func wait(for pid: pid_t, _ continuation: CheckedContinuation<Int32, Never>) {
    let status = state.withLock { state -> Int32? in
      if let status = state.ended.removeValue(forKey: pid) { return status }
      state.waiting[pid] = continuation
      return nil
    }
    if let status {
      continuation.resume(returning: status)
    } else {
      started.signal()
    }
  }

  private func reap() {
    while true {
      var status: Int32 = 0
      let pid = waitpid(-1, &status, 0)
      if pid == -1 {
        if errno == ECHILD { started.wait() }
        continue
      }
      let signal = status & 0x7f
      let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
      let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
        guard let waiter = state.waiting.removeValue(forKey: pid) else {
          state.ended[pid] = code
          return nil
        }
        return waiter
      }
      waiter?.resume(returning: code)
    }
  }
}
