import CLaunch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process to start: its program, arguments and environment, its directory, where its
/// standard input, output and error go. `start()` starts it with `posix_spawn` (Foundation's
/// `Process` crashed under 50 sessions starting runs at once; `posix_spawn` opens nothing in the
/// parent), with no signal blocked and every signal at its default action, whatever this process
/// had set: ignored by whoever started it, blocked, or handled by its own handlers.
public struct Launch: Sendable {
  /// Where one of the child's standard descriptors comes from.
  public enum Descriptor: Sendable {
    /// This process's own.
    case inherited
    /// `/dev/null`, for reading.
    case nullDevice
    /// A file, created or emptied, for writing (mode 0600); its path is the caller's, not the
    /// child's directory's.
    case file(String)
    /// A descriptor of this process (3 or more), which the child then holds only as this one.
    case descriptor(Int32)
  }

  /// The program's path.
  public var executable: String
  /// Its arguments, the first its name.
  public var arguments: [String]
  /// Its environment; nil for this process's.
  public var environment: [String: String]?
  /// The directory it starts in; nil for this process's.
  public var directory: String?
  public var standardInput: Descriptor
  public var standardOutput: Descriptor
  public var standardError: Descriptor
  /// In a process group of its own: the Ctrl-C that a terminal sends this process's group does not
  /// reach it, and `ChildProcess.signal(_:group:)` reaches what it starts.
  public var ownProcessGroup: Bool
  /// Whether the child holds none of this process's other descriptors (close-on-exec or not).
  public var closesOtherDescriptors: Bool

  public init(
    _ executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    standardInput: Descriptor = .inherited, standardOutput: Descriptor = .inherited,
    standardError: Descriptor = .inherited, ownProcessGroup: Bool = false, closesOtherDescriptors: Bool = false
  ) {
    self.executable = executable
    self.arguments = arguments
    self.environment = environment
    self.directory = directory
    self.standardInput = standardInput
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.ownProcessGroup = ownProcessGroup
    self.closesOtherDescriptors = closesOtherDescriptors
  }

  /// Starts the child: it, or why it did not start.
  public func start() -> Result<ChildProcess, LaunchFailure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let failure = add(to: &actions) { return .failure(failure) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if ownProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      argv.forEach { free($0) }
      envp?.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code =
      if let envp {
        posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      } else {
        posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
      }
    guard code == 0 else { return .failure(LaunchFailure(executable: executable, code: code)) }
    return .success(ChildProcess(pid: pid))
  }

  /// The standard descriptors, then the directory (after the opens: the files' paths are the
  /// caller's), then the closing of the rest.
  private func add(to actions: inout posix_spawn_file_actions_t) -> LaunchFailure? {
    var duplicated: Set<Int32> = []
    for (target, descriptor) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
      switch descriptor {
      case .inherited: break
      case .nullDevice: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDONLY, 0)
      case .file(let path):
        posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      case .descriptor(let source):
        posix_spawn_file_actions_adddup2(&actions, source, target)
        duplicated.insert(source)
      }
    }
    for source in duplicated.sorted() where source > 2 { posix_spawn_file_actions_addclose(&actions, source) }
    if let directory {
      let code = launch_file_actions_addchdir(&actions, directory)
      if code != 0 { return LaunchFailure(executable: executable, code: code) }
    }
    if closesOtherDescriptors {
      let code = launch_file_actions_addclosefrom(&actions, 3)
      if code != 0 { return LaunchFailure(executable: executable, code: code) }
    }
    return nil
  }
}

/// Why a child did not start: its program, and the error number, said as `strerror` says it.
public struct LaunchFailure: Error, Sendable, CustomStringConvertible {
  public let executable: String
  public let code: Int32
  /// `strerror`'s text alone: "No such file or directory".
  public var reason: String { String(cString: strerror(code)) }
  public var description: String { "cannot start \(executable): \(reason)" }
}
