import Launch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test's run: a child process of this same executable (`Platform.executablePath`), started in the test
/// file's directory, its standard input `/dev/null` and its standard output and error in files.
struct TestProcess {
  let child: ChildProcess
  /// When it started, on the monotonic clock, in nanoseconds.
  let started: UInt64

  var pid: pid_t { child.pid }

  /// What ended a test's process.
  enum Ending: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)
    /// It could not be started: why.
    case notStarted(String)

    init(_ termination: ChildProcess.Termination) {
      switch termination {
      case .exited(let status): self = .exited(status)
      case .signalled(let signal): self = .signalled(signal)
      }
    }
  }

  /// Starts `executable` with `arguments` (the first is its name) in `directory`, writing its
  /// standard output and error to the files `output` and `error`.
  static func start(
    _ executable: String, _ arguments: [String], in directory: String, output: String, error: String
  ) -> Result<TestProcess, TestFiles.Problem> {
    let launch = Launch(
      executable, arguments: arguments, directory: directory, standardInput: .nullDevice,
      standardOutput: .file(output), standardError: .file(error))
    let started = now()
    switch launch.start() {
    case .success(let child): return .success(TestProcess(child: child, started: started))
    case .failure(let failure): return .failure(TestFiles.Problem(description: failure.description))
    }
  }

  /// A child of this process that has ended, its pid and how it ended; nil when none has (yet).
  static func reap() -> (pid: pid_t, ending: Ending)? {
    ChildProcess.reapAny().map { ($0.child.pid, Ending($0.termination)) }
  }

  /// The monotonic clock, in nanoseconds.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
