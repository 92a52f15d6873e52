#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process that `Launch` started: waited for, polled or signalled by its pid.
public struct ChildProcess: Hashable, Sendable {
  public let pid: pid_t

  public init(pid: pid_t) {
    self.pid = pid
  }

  /// How a child ended.
  public enum Termination: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// This signal ended it.
    case signalled(Int32)

    /// From `waitpid`'s status; nil for a child only stopped or continued.
    init?(waitStatus status: Int32) {
      // WIFEXITED, WEXITSTATUS, WTERMSIG are macros Swift does not import.
      let signal = status & 0x7f
      if signal == 0 {
        self = .exited((status >> 8) & 0xff)
      } else if signal != 0x7f {
        self = .signalled(signal)
      } else {
        return nil
      }
    }

    /// The status a shell gives it: the exit status, or 128 + the signal.
    public var status: Int32 {
      switch self {
      case .exited(let status): status
      case .signalled(let signal): 128 + signal
      }
    }
  }

  /// Waits for it to end, blocking the thread; nil when it is no child to wait for (something
  /// else reaped it).
  public func wait() -> Termination? {
    Self.waitForAChild(pid, blocking: true)?.termination
  }

  /// How it ended, if it has: `.running` while it runs, `.lost` when it is no child to wait for.
  public func poll() -> Poll {
    var status: Int32 = 0
    while true {
      let ended = waitpid(pid, &status, WNOHANG)
      if ended < 0 {
        if errno == EINTR { continue }
        return .lost
      }
      guard ended == pid else { return .running }
      if let termination = Termination(waitStatus: status) { return .ended(termination) }
    }
  }

  /// What `poll()` found.
  public enum Poll: Equatable, Sendable {
    /// It has not ended.
    case running
    /// It ended so.
    case ended(Termination)
    /// It is no child of this process to wait for (something else reaped it).
    case lost
  }

  /// Any child of this process that has ended, and how; nil when none has (yet). For a caller that
  /// runs several and takes whichever ends first.
  public static func reapAny() -> (child: ChildProcess, termination: Termination)? {
    waitForAChild(-1, blocking: false).map { (ChildProcess(pid: $0.pid), $0.termination) }
  }

  /// Sends `signal` to it; with `group`, to its process group first (it and what it started, when
  /// it was launched in a group of its own).
  public func signal(_ signal: Int32, group: Bool = false) {
    if group { _ = kill(-pid, signal) }
    _ = kill(pid, signal)
  }

  /// `waitpid` for `pid` (-1: any child) until a child has ended; nil when none has (not
  /// blocking) or there is none to wait for.
  static func waitForAChild(_ pid: pid_t, blocking: Bool) -> (pid: pid_t, termination: Termination)? {
    var status: Int32 = 0
    while true {
      let ended = waitpid(pid, &status, blocking ? 0 : WNOHANG)
      if ended < 0, errno == EINTR { continue }
      guard ended > 0 else { return nil }
      if let termination = Termination(waitStatus: status) { return (ended, termination) }
    }
  }
}
