import AsyncAlgorithms
import Dispatch
import Locking
import PipeSema

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `timer`: counts the ticks of an `AsyncTimerSequence`, 0, 1, 2, …
struct TickCountSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let timer: AsyncTimerSequence<PipeClock>

  func makeAsyncIterator() -> Iterator { Iterator(base: timer.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: AsyncTimerSequence<PipeClock>.Iterator
    var count = 0

    mutating func next() async -> Value? {
      guard await base.next() != nil else { return nil }
      defer { count += 1 }
      return .int(count)
    }
  }
}

/// `enumerated`: (index, element) tuples.
struct EnumeratedSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    var index = 0

    mutating func next() async throws -> Value? {
      guard let value = try await base.next() else { return nil }
      defer { index += 1 }
      return .tuple([.int(index), value])
    }
  }
}

/// `never`: no element, until the consuming task is cancelled; then it finishes.
struct NeverSequence: AsyncSequence, Sendable {
  typealias Element = Value

  func makeAsyncIterator() -> Iterator { Iterator() }

  struct Iterator: AsyncIteratorProtocol {
    mutating func next() async -> Value? {
      // Parks on a continuation that only cancellation resumes.
      let box = ContinuationBox()
      await withTaskCancellationHandler {
        await withUnsafeContinuation { continuation in box.store(continuation) }
      } onCancel: {
        box.resume()
      }
      return nil
    }
  }
}

/// A continuation that resumes once, whether the resume or the store comes first.
final class ContinuationBox: Sendable {
  private let state = Locked<(continuation: UnsafeContinuation<Void, Never>?, resumed: Bool)>((nil, false))

  func store(_ continuation: UnsafeContinuation<Void, Never>) {
    let resumeNow = state.withLock { state -> Bool in
      if state.resumed { return true }
      state.continuation = continuation
      return false
    }
    if resumeNow { continuation.resume() }
  }

  func resume() {
    let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.resumed = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume()
  }
}

/// A throwing continuation resumed by whichever comes first: the result or cancellation.
final class OnceContinuation: Sendable {
  private let state = Locked<
    (continuation: UnsafeContinuation<String?, any Error>?, early: Result<String?, any Error>?)
  >(
    (nil, nil))

  /// Keeps the continuation, or resumes it at once with what came first; true when kept.
  @discardableResult
  func store(_ continuation: UnsafeContinuation<String?, any Error>) -> Bool {
    let early = state.withLock { state -> Result<String?, any Error>? in
      if let early = state.early { return early }
      state.continuation = continuation
      return nil
    }
    guard let early else { return true }
    continuation.resume(with: early)
    return false
  }

  /// Resumes with `result` unless something came first; true when this was the first.
  @discardableResult
  func resume(with result: Result<String?, any Error>) -> Bool {
    let (first, continuation) = state.withLock { state -> (Bool, UnsafeContinuation<String?, any Error>?) in
      guard state.early == nil else { return (false, nil) }
      state.early = result
      defer { state.continuation = nil }
      return (true, state.continuation)
    }
    continuation?.resume(with: result)
    return first
  }
}

/// `fail "MSG"`: fails at the first request.
struct FailSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let error: PipelineError

  func makeAsyncIterator() -> Iterator { Iterator(error: error) }

  struct Iterator: AsyncIteratorProtocol {
    let error: PipelineError
    mutating func next() async throws -> Value? { throw error }
  }
}

/// `random LO HI [count:] [seed:]`: SplitMix64 when seeded, the system generator otherwise.
struct RandomSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let low: Int
  let high: Int
  let count: Int?
  let seed: Int?

  func makeAsyncIterator() -> Iterator {
    Iterator(
      low: low, high: high, remaining: count, generator: seed.map { SplitMix64(seed: UInt64(bitPattern: Int64($0))) })
  }

  struct Iterator: AsyncIteratorProtocol {
    let low: Int
    let high: Int
    var remaining: Int?
    var generator: SplitMix64?

    mutating func next() async -> Value? {
      if let left = remaining {
        guard left > 0 else { return nil }
        remaining = left - 1
      }
      if Task.isCancelled { return nil }
      guard var seeded = generator else { return .int(Int.random(in: low...high)) }
      defer { generator = seeded }
      return .int(Int.random(in: low...high, using: &seeded))
    }
  }
}

/// A small seedable generator, so `random … seed: S` repeats across runs and machines.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

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
