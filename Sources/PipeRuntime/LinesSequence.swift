import AsyncAlgorithms
import Dispatch
import Locking
import PipeEvaluator
import PipeSema
import TextFiles
import VirtualTime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `lines "FILE"` and `stdin`: lines read from a file descriptor, on a thread that may block
/// without holding up the cooperative pool.
struct LinesSequence: AsyncSequence, Sendable {
  typealias Element = Value
  /// The path, or nil for standard input.
  let path: String?
  let stage: String
  /// The job's virtual clock, if it has one: reads then take no virtual time.
  let driver: VirtualDriver?

  func makeAsyncIterator() -> Iterator { Iterator(reader: LineReader(path: path, stage: stage, driver: driver)) }

  struct Iterator: AsyncIteratorProtocol {
    let reader: LineReader

    mutating func next() async throws -> Value? {
      try Task.checkCancellation()
      let line = try await reader.nextLine()
      return line.map { .string($0) }
    }
  }
}

/// Reads lines with `getline`; closes the file when dropped.
final class LineReader: @unchecked Sendable {
  // @unchecked: `file` is only touched by one read at a time: the iterator awaits each read.
  private var file: UnsafeMutablePointer<FILE>?
  private var opened = false
  private let path: String?
  private let stage: String
  private let driver: VirtualDriver?
  /// The longest line `lines` and `stdin` read: 1 MiB.
  static let maximumLineBytes = 1 << 20

  init(path: String?, stage: String, driver: VirtualDriver?) {
    self.path = path
    self.stage = stage
    self.driver = driver
  }

  deinit {
    if let file, path != nil { fclose(file) }
  }

  /// The next line; cancellation returns nil at once (a read already under way finishes unseen).
  /// Each read runs on a thread of its own, so a read that blocks (a FIFO) holds up no other.
  /// On a virtual clock the clock stands still until the read is back, and the reading task is
  /// resumed on the clock's thread.
  func nextLine() async throws -> String? {
    let once = OnceContinuation()
    let driver = self.driver
    // Both touched on the driver thread only, when there is a driver.
    let reading = Locked(false)
    let deliver: @Sendable (Result<String?, any Error>) -> Void = { result in
      guard let driver else {
        once.resume(with: result)
        return
      }
      driver.perform {
        if once.resume(with: result), reading.withLock({ $0 }) { driver.externalWorkEnded() }
      }
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<String?, any Error>) in
        guard once.store(continuation) else { return }
        // Here, not before the await: the task may hop executors on the way, and must not be held up.
        reading.withLock { $0 = true }
        driver?.externalWorkBegan()
        let reader = self
        DispatchQueue.global().async { deliver(Result { try reader.readLine() }) }
      }
    } onCancel: {
      deliver(.success(nil))
    }
  }

  private func readLine() throws -> String? {
    if !opened {
      opened = true
      if let path {
        file = fopen(path, "r")
        if file == nil {
          let reason = String(cString: strerror(errno))
          throw PipelineError(stage: stage, message: "cannot open '\(path)': \(reason)")
        }
        var status = stat()
        if let file, fstat(fileno(file), &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
          throw PipelineError(stage: stage, message: "cannot read '\(path)': it is a directory")
        }
      } else {
        guard !StandardDescriptors.wasClosed(0) else {
          throw PipelineError(stage: stage, message: StandardDescriptors.closedInput)
        }
        file = fdopen(dup(0), "r")
      }
    }
    guard let file else { return nil }
    // Byte by byte from the FILE's buffer, so a line without end (`/dev/zero`) is an error, not
    // all of memory.
    var line: [UInt8] = []
    while true {
      let byte = getc(file)
      if byte == EOF {
        if ferror(file) != 0 {
          throw PipelineError(stage: stage, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
      }
      if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
      line.append(UInt8(truncatingIfNeeded: byte))
      if line.count > Self.maximumLineBytes {
        throw PipelineError(stage: stage, message: "a line is longer than 1 MiB, the most 'lines' reads")
      }
    }
  }
}
