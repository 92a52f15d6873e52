#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What pipesh asks of the operating system that Linux (glibc) and macOS (Darwin) answer
/// differently, in one place: the C library's calls pipesh names where a method of the same name
/// would be found first (a command's `exit`, a type's `read`), the running executable's path,
/// resident memory, a detached thread and a socket's flags.
///
/// Only the Linux branches have been compiled and run (the machine pipesh is made on); the Darwin
/// branches are written to the SDK's declarations and are built by the macOS job of
/// `.github/workflows/ci.yml`.
public enum Platform {
  public static func exit(_ status: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(status)
    #else
      Darwin.exit(status)
    #endif
  }

  public static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  public static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, buffer, count)
    #else
      Darwin.write(descriptor, buffer, count)
    #endif
  }

  @discardableResult
  public static func close(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(descriptor)
    #else
      Darwin.close(descriptor)
    #endif
  }

  /// The running executable's absolute path (Linux: `/proc/self/exe`; macOS:
  /// `_NSGetExecutablePath`, resolved), or nil when the system does not say.
  public static var executablePath: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    #if canImport(Glibc)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      var size = UInt32(buffer.count)
      guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
      var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      guard realpath(buffer, &resolved) != nil else { return nil }
      return String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
  }

  /// The process's resident memory in kB (Linux: `VmRSS` of `/proc/self/status`; macOS: the
  /// task's `resident_size`), or 0 when it cannot be read.
  public static var residentKilobytes: Int {
    #if canImport(Glibc)
      guard let file = fopen("/proc/self/status", "r") else { return 0 }
      defer { fclose(file) }
      var line = [CChar](repeating: 0, count: 256)
      while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix("VmRSS:") else { continue }
        return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
      }
      return 0
    #else
      var info = mach_task_basic_info()
      var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
      let status = withUnsafeMutablePointer(to: &info) {
        $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
          task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
        }
      }
      return status == KERN_SUCCESS ? Int(info.resident_size / 1024) : 0
    #endif
  }

  /// Runs `body` on a new thread of its own, detached; false when no thread could be made.
  @discardableResult
  public static func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
      let made = pthread_create(
        &thread, nil,
        { raw in
          guard let raw else { return nil }
          Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
          return nil
        }, box)
      guard made == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return false
      }
      pthread_detach(thread)
    #else
      var thread: pthread_t?
      let made = pthread_create(
        &thread, nil,
        { raw in
          Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
          return nil
        }, box)
      guard made == 0, let thread else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return false
      }
      pthread_detach(thread)
    #endif
    return true
  }

  /// A stream socket of `domain` (AF_UNIX, AF_INET), closed on exec; writing to it after its peer
  /// left never raises SIGPIPE when sent with `noSignal` (macOS: the socket's SO_NOSIGPIPE).
  public static func streamSocket(_ domain: Int32) -> Int32 {
    #if canImport(Glibc)
      socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let fd = socket(domain, SOCK_STREAM, 0)
      guard fd >= 0 else { return fd }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      var on: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
      return fd
    #endif
  }

  /// `send`'s flag that keeps a write to a closed peer from raising SIGPIPE (0 on macOS, whose
  /// sockets from `streamSocket` say it themselves).
  public static var noSignal: Int32 {
    #if canImport(Glibc)
      Int32(MSG_NOSIGNAL)
    #else
      0
    #endif
  }
}

/// A thread's body, handed through `pthread_create`'s one pointer.
private final class ThreadBody: Sendable {
  let body: @Sendable () -> Void

  init(_ body: @escaping @Sendable () -> Void) {
    self.body = body
  }
}
