import CPipeSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test's run: a child process of this same executable (`/proc/self/exe`), started with
/// `posix_spawn` in the test file's directory, its standard input `/dev/null` and its standard
/// output and error in files.
struct TestProcess {
  let pid: pid_t
  /// When it started, on the monotonic clock, in nanoseconds.
  let started: UInt64

  /// What ended a test's process.
  enum Ending: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)
    /// It could not be started: why.
    case notStarted(String)
  }

  /// Starts `executable` with `arguments` (the first is its name) in `directory`, writing its
  /// standard output and error to the files `output` and `error`.
  static func start(
    _ executable: String, _ arguments: [String], in directory: String, output: String, error: String
  ) -> Result<TestProcess, TestFiles.Problem> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // After the opens: the files' paths are the caller's, the directory is the test's.
    pipe_spawn_file_actions_addchdir(&actions, directory)
    let started = now()
    switch spawnWithDefaultSignals(executable, arguments, actions: &actions) {
    case .success(let pid): return .success(TestProcess(pid: pid, started: started))
    case .failure(let failure):
      return .failure(TestFiles.Problem(description: "cannot start \(executable): \(failure)"))
    }
  }

  /// A child of this process that has ended, its pid and how it ended; nil when none has (yet).
  static func reap() -> (pid: pid_t, ending: Ending)? {
    var status: Int32 = 0
    while true {
      let pid = waitpid(-1, &status, WNOHANG)
      if pid < 0, errno == EINTR { continue }
      guard pid > 0 else { return nil }
      // WIFEXITED, WEXITSTATUS, WTERMSIG are macros Swift does not import.
      let signal = status & 0x7f
      if signal == 0 { return (pid, .exited((status >> 8) & 0xff)) }
      if signal != 0x7f { return (pid, .signalled(signal)) }
    }
  }

  /// The monotonic clock, in nanoseconds.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
