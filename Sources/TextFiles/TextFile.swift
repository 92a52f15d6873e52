import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads whole text files (scripts, `load`, standard input as a script) with the checks a shell
/// needs: a directory or a read error is an error, not an empty file, and no script may be larger
/// than `maximumBytes` (`/dev/zero` would otherwise grow without end).
public enum TextFile {
  /// The largest script pipesh reads: 16 MiB.
  public static let maximumBytes = 16 << 20

  /// What went wrong, as a sentence: `cannot read 'x': Is a directory`.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The text of the file at `path`.
  /// With `maximumBytes` and `what`, a file of another kind and its own limit (a saved trace's).
  /// With `strictly`, a file that is not UTF-8 is refused, saying where (else each bad byte reads
  /// as U+FFFD): what rewrites the file (`pipesh fmt`) must not change bytes it did not mean to.
  public static func read(
    _ path: String, maximumBytes: Int = maximumBytes, what: String = "a script", strictly: Bool = false
  ) -> Result<String, Failure> {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return .failure(failure(path, errno)) }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      return .failure(failure(path, EISDIR))
    }
    return read(descriptor: descriptor, maximumBytes: maximumBytes, what: what, strictly: strictly).mapError {
      Failure(description: "cannot read '\(path)': \($0)")
    }
  }

  /// The last `limit` bytes of the file at `path` (all of it when it is no longer), and how many
  /// bytes before them were left out: a file of any size, read from where its tail starts.
  public static func readTail(_ path: String, keeping limit: Int) -> Result<(text: String, leftOut: Int), Failure> {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return .failure(failure(path, errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failure(failure(path, errno)) }
    if (status.st_mode & S_IFMT) == S_IFDIR { return .failure(failure(path, EISDIR)) }
    let leftOut = max(0, Int(status.st_size) - limit)
    if leftOut > 0, lseek(descriptor, off_t(leftOut), SEEK_SET) < 0 { return .failure(failure(path, errno)) }
    // Twice the limit: room for what a process still writing adds, without reading without end.
    return read(descriptor: descriptor, maximumBytes: 2 * limit, what: "the tail of a file").map { ($0, leftOut) }
      .mapError { Failure(description: "cannot read '\(path)': \($0)") }
  }

  /// Everything that can be read from `descriptor`, up to `maximumBytes`.
  public static func read(
    descriptor: Int32, maximumBytes: Int = maximumBytes, what: String = "a script", strictly: Bool = false
  ) -> Result<String, Failure> {
    if StandardDescriptors.wasClosed(descriptor) { return .failure(Failure(description: "it is closed")) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = Platform.read(descriptor, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      if count < 0 { return .failure(Failure(description: String(cString: strerror(errno)))) }
      if count == 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
      if bytes.count > maximumBytes {
        return .failure(Failure(description: "larger than \(maximumBytes >> 20) MiB, the most \(what) may be"))
      }
    }
    if strictly, let bad = firstInvalidUTF8(bytes) {
      let line = bytes[..<bad].count { $0 == UInt8(ascii: "\n") } + 1
      let column = bad - (bytes[..<bad].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
      return .failure(Failure(description: "it is not UTF-8 text: line \(line), byte \(column) of the line"))
    }
    return .success(String(decoding: bytes, as: UTF8.self))
  }

  /// The offset of the first byte that does not decode as UTF-8, or nil.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  /// Writes `text` to the file at `path`, made or emptied first; the bytes written. A file made
  /// `privately` is the user's alone (0600: a program's probed elements may be private).
  public static func write(_ text: String, to path: String, privately: Bool = false) -> Result<Int, Failure> {
    write(text, to: path, flags: O_TRUNC, mode: privately ? 0o600 : 0o644)
  }

  /// Adds `text` at the end of the file at `path`, made if missing.
  public static func append(_ text: String, to path: String) -> Result<Int, Failure> {
    write(text, to: path, flags: O_APPEND)
  }

  private static func write(
    _ text: String, to path: String, flags: Int32, mode: mode_t = 0o644
  ) -> Result<Int, Failure> {
    let bytes = Array(text.utf8)
    let privately = mode == 0o600
    // Privately, the file is emptied only once it is known to be the user's own ordinary file.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (privately ? flags & ~O_TRUNC : flags), mode)
    guard descriptor >= 0 else { return .failure(writeFailure(path, errno)) }
    if privately {
      // The mode is the one asked for even where the file was there before (`open` sets it only
      // when it makes the file); a device or a pipe (`/dev/null`) is written as it is, and
      // another user's file is refused before anything of it is lost.
      var status = stat()
      guard fstat(descriptor, &status) == 0 else {
        let code = errno
        close(descriptor)
        return .failure(writeFailure(path, code))
      }
      if (status.st_mode & S_IFMT) == S_IFREG {
        guard status.st_uid == geteuid(), fchmod(descriptor, mode) == 0, ftruncate(descriptor, 0) == 0 else {
          let code = status.st_uid == geteuid() ? errno : EPERM
          close(descriptor)
          return .failure(writeFailure(path, code))
        }
      }
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Platform.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else {
        let code = written < 0 ? errno : EIO
        close(descriptor)
        return .failure(writeFailure(path, code))
      }
      offset += written
    }
    guard close(descriptor) == 0 else { return .failure(writeFailure(path, errno)) }
    return .success(bytes.count)
  }

  private static func writeFailure(_ path: String, _ code: Int32) -> Failure {
    Failure(description: "cannot write '\(path)': \(String(cString: strerror(code)))")
  }

  private static func failure(_ path: String, _ code: Int32) -> Failure {
    Failure(description: "cannot read '\(path)': \(String(cString: strerror(code)))")
  }
}
