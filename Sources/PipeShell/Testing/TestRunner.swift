import Dispatch
import Launch
import Locking
import PipeSyntax
import PipeViews
import Platform
import TextFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh test [PATH…] [--junit FILE] [-v]`: runs every `.pipe` file under the PATHs as a test and
/// reports on them (`TestReport`, `JUnitReport`).
///
/// Each file runs in a child process of this executable, on the virtual clock, in the file's own
/// directory, with `--expectations FILE` so that the run records each expectation it checks; as
/// many run at once as there are cores. The report follows the paths' order whatever order the
/// runs end in, a file's line printed as soon as the files before it have ended.
public enum TestRunner {
  public struct Options: Sendable {
    /// Files and directories; none: the current directory.
    public var paths: [String]
    /// Where to write JUnit XML.
    public var junit: String?
    /// `-v`, passed on: every expectation that holds says so, and every file's output is shown.
    public var verbose: Bool
    /// At most this many tests at once (nil: the number of cores).
    public var parallel: Int?
    /// A test still running after this many seconds is stopped and fails (nil: no limit).
    public var timeLimit: Double?

    public init(
      paths: [String], junit: String? = nil, verbose: Bool = false, parallel: Int? = nil, timeLimit: Double? = 60
    ) {
      self.timeLimit = timeLimit
      self.paths = paths
      self.junit = junit
      self.verbose = verbose
      self.parallel = parallel
    }
  }

  /// Runs the tests and prints the report: 0 when every test passed, 1 when one failed, 2 when a
  /// PATH or the JUnit file cannot be used (before any test runs), 130 when Ctrl-C stopped it (143
  /// for SIGTERM: the tests running get the signal, none starts, the report and the JUnit file say
  /// what ran).
  public static func run(_ options: Options) -> Int32 {
    let files: [TestFile]
    switch TestFiles.find(options.paths) {
    case .success(let found): files = found
    case .failure(let problem):
      FileOutput.error("error: pipesh test: \(problem)")
      return 2
    }
    // The JUnit file is opened first: a path it cannot be written to stops the run before it starts.
    var junit: Int32?
    if let path = options.junit {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        FileOutput.error(
          "error: pipesh test: cannot write the JUnit file '\(path)': \(String(cString: strerror(errno)))")
        return 2
      }
      junit = descriptor
    }
    guard let scratch = ScratchDirectory() else {
      FileOutput.error(
        "error: pipesh test: cannot make a directory for the tests' output in /tmp: \(String(cString: strerror(errno)))"
      )
      return 2
    }
    // Ctrl-C (or SIGTERM, as a CI system cancelling a job sends) stops the run: it wakes the wait
    // for the tests' ends, which passes the signal on to the tests running.
    let wake = DispatchSemaphore(value: 0)
    let stop = Locked<Int32?>(nil)
    let handlers = [SIGINT, SIGTERM].map { number in
      SignalHub.add(number) {
        stop.withLock { $0 = $0 ?? number }
        wake.signal()
      }
    }
    defer { handlers.forEach(SignalHub.remove) }
    let colour = Paint.isOn(for: 1)
    let parallel = max(1, options.parallel ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    var printed = 0
    let results = runAll(
      files, options: options, parallel: parallel, scratch: scratch, wake: wake,
      stopped: { stop.withLock { $0 } }
    ) { results in
      // Every line whose file, and the files before it, have ended.
      while printed < results.count, let result = results[printed] {
        Console.writeNow(TestReport.entry(result, verbose: options.verbose, colour: colour))
        printed += 1
      }
    }
    scratch.remove()
    Console.writeNow(TestReport.total(results))
    var status: Int32 = results.allSatisfy { $0.verdict == .passed } ? 0 : 1
    if let signal = stop.withLock({ $0 }) {
      let missing = files.count - results.count
      FileOutput.error(
        "pipesh test: \(signal == SIGINT ? "interrupted" : "terminated")"
          + (missing > 0 ? ": \(missing) of \(files.count) files did not run" : ""))
      status = 128 + signal
    }
    if let junit, let path = options.junit {
      let bytes = Array(JUnitReport.xml(results).utf8)
      if !writeAll(bytes, to: junit) {
        FileOutput.error(
          "error: pipesh test: cannot write the JUnit file '\(path)': \(String(cString: strerror(errno)))")
        status = 1
      }
      close(junit)
    }
    return status
  }

  /// Runs `files`, at most `parallel` at once; after each ends, `ended` sees every result so far
  /// (nil for the files still running or not started), in the files' order. Once `stopped` gives a
  /// signal, no file starts, the files running get that signal, and the results are those of the
  /// files before the first that did not run. `wake` is signalled for each signal. A file
  /// still running after `options.timeLimit` seconds gets SIGTERM, and SIGKILL if it is still
  /// there `graceSeconds` later.
  private static func runAll(
    _ files: [TestFile], options: Options, parallel: Int, scratch: ScratchDirectory, wake: DispatchSemaphore,
    stopped: () -> Int32?, ended: ([TestResult?]) -> Void
  ) -> [TestResult] {
    var results = [TestResult?](repeating: nil, count: files.count)
    var running: [pid_t: Running] = [:]
    // A child's end wakes the wait below (SIGCHLD, through the signal pipe); so does Ctrl-C.
    let childEnded = SignalHub.add(SIGCHLD) { wake.signal() }
    defer { SignalHub.remove(childEnded) }
    // Whoever started pipesh may have left signals blocked (Foundation's Process blocks nearly
    // all in its children): this thread takes these, so that their handlers run.
    var handled = sigset_t()
    sigemptyset(&handled)
    for number in [SIGCHLD, SIGINT, SIGTERM] { sigaddset(&handled, number) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    let limit = options.timeLimit.map { UInt64($0 * 1e9) }
    var next = 0
    var passedOn = false
    while next < files.count || !running.isEmpty {
      if let signal = stopped() {
        next = files.count
        // A test started by a terminal gets Ctrl-C from it too; once more changes nothing.
        if !passedOn { for child in running.values { child.process.child.signal(signal) } }
        passedOn = true
      }
      while next < files.count && running.count < parallel {
        let index = next
        next += 1
        switch start(files[index], index: index, options: options, scratch: scratch) {
        case .success(let process): running[process.pid] = Running(index: index, process: process)
        case .failure(let problem):
          results[index] = TestResult(
            file: files[index], ending: .notStarted(problem.description), output: "", error: "", expectations: [],
            problem: nil, duration: 0)
          ended(results)
        }
      }
      guard !running.isEmpty else { continue }
      var reaped = false
      while let (pid, ending) = TestProcess.reap() {
        guard let child = running.removeValue(forKey: pid) else { continue }
        reaped = true
        results[child.index] = collect(
          files[child.index], ending: ending, duration: TestProcess.now() - child.process.started,
          stoppedAfter: child.stopped == nil ? nil : options.timeLimit, index: child.index, scratch: scratch)
        ended(results)
      }
      guard !reaped else { continue }
      guard let limit else {
        wake.wait()
        continue
      }
      let now = TestProcess.now()
      for (pid, child) in running {
        if let stopped = child.stopped {
          if now >= stopped + graceSeconds * 1_000_000_000 { child.process.child.signal(SIGKILL) }
        } else if now >= child.process.started + limit {
          child.process.child.signal(SIGTERM)
          running[pid]?.stopped = now
        }
      }
      let deadlines = running.values.map { child in
        child.stopped.map { $0 + graceSeconds * 1_000_000_000 } ?? child.process.started + limit
      }
      let soonest = deadlines.min() ?? now
      _ = wake.wait(timeout: .now() + .nanoseconds(Int(min(soonest > now ? soonest - now : 0, 1 << 60))))
    }
    if stopped() != nil { return Array(results.prefix { $0 != nil }.compactMap { $0 }) }
    // A child lost to waitpid (it cannot be, unless something else reaped it) is a failed test.
    for (index, result) in results.enumerated() where result == nil {
      results[index] = TestResult(
        file: files[index], ending: .notStarted("its process was lost"), output: "", error: "", expectations: [],
        problem: nil, duration: 0)
    }
    ended(results)
    return results.compactMap { $0 }
  }

  /// How long a test stopped at its time limit has to end after SIGTERM before it gets SIGKILL.
  static let graceSeconds: UInt64 = 2

  /// A test's process while it runs.
  private struct Running {
    let index: Int
    let process: TestProcess
    /// When it was sent SIGTERM for running past the time limit.
    var stopped: UInt64?
  }

  private static func start(
    _ file: TestFile, index: Int, options: Options, scratch: ScratchDirectory
  ) -> Result<
    TestProcess, TestFiles.Problem
  > {
    var arguments = ["pipesh", "--virtual-time", "--expectations", scratch.path(index, "expectations")]
    if options.verbose { arguments.append("-v") }
    // After `--`, a file named `test` or `-x.pipe` is a file.
    arguments += ["--", file.name]
    guard let executable = Platform.executablePath else {
      return .failure(TestFiles.Problem(description: "\(file.name): pipesh cannot tell where its own executable is"))
    }
    return TestProcess.start(
      executable, arguments, in: file.directory, output: scratch.path(index, "out"),
      error: scratch.path(index, "err"))
  }

  /// How much of a file's standard output and error the report and the JUnit file keep: the end.
  static let outputKept = 65_536

  /// The result of the test of `file`, from what its process left in the scratch directory.
  private static func collect(
    _ file: TestFile, ending: TestProcess.Ending, duration: UInt64, stoppedAfter: Double?, index: Int,
    scratch: ScratchDirectory
  ) -> TestResult {
    func read(_ kind: String) -> String {
      // An endless job can print without end until the time limit, far more than a script may
      // hold: the report and the JUnit file keep its last 64 kB, read from where they start.
      switch TextFile.readTail(scratch.path(index, kind), keeping: outputKept) {
      case .success(let (text, leftOut)):
        guard leftOut > 0 else { return text }
        // From the first whole line (the cut may fall inside a line, or inside a character).
        let start = text.utf8.firstIndex(of: UInt8(ascii: "\n")).map { text.utf8.index(after: $0) } ?? text.startIndex
        let dropped = leftOut + text.utf8.distance(from: text.startIndex, to: start)
        return "(the \(dropped) bytes before these were left out)\n" + text[start...]
      case .failure(let failure): return "(\(failure))\n"
      }
    }
    var records: [ExpectationRecord] = []
    var problem: String?
    // No record file: the run checked no expectation (or ended before it could write one).
    if access(scratch.path(index, "expectations"), F_OK) == 0 {
      switch TextFile.read(scratch.path(index, "expectations"), what: "an expectations record") {
      case .success(let text):
        switch ExpectationRecord.parse(text) {
        case .success(let parsed): records = parsed
        case .failure(let failure): problem = failure.description
        }
      case .failure(let failure): problem = failure.description
      }
    }
    let result = TestResult(
      file: file, ending: ending, output: read("out"), error: read("err"), expectations: records, problem: problem,
      duration: duration, stoppedAfter: stoppedAfter)
    for kind in ["out", "err", "expectations"] { unlink(scratch.path(index, kind)) }
    return result
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }
}

/// A directory of its own under `$TMPDIR` (or /tmp) for the tests' output files, removed at the end.
struct ScratchDirectory {
  let root: String

  init?() {
    var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    var template = Array((base + "/pipesh-test.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { return nil }
    // Absolute: a test runs in its own directory and is given the path of its expectations record.
    var root = String(cString: made)
    if !root.hasPrefix("/") {
      guard let directory = getcwd(nil, 0) else { return nil }
      root = String(cString: directory) + "/" + root
      free(directory)
    }
    self.root = root
  }

  /// The file of kind `kind` (`out`, `err`, `expectations`) of test number `index`.
  func path(_ index: Int, _ kind: String) -> String {
    "\(root)/\(index).\(kind)"
  }

  func remove() {
    guard let stream = opendir(root) else { return }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(stream)
    for name in names { unlink("\(root)/\(name)") }
    rmdir(root)
  }
}
