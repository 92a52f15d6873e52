import AsyncAlgorithms
import Testing

/// One canary per swift-async-algorithms 1.1.4 bug that pipesh works around
/// (`Sources/PipeRuntime/Workarounds/`). Each runs the raw AA operator and records the bug as a
/// known issue: the day a new AA fixes it, `withKnownIssue` fails the test, and the workaround's
/// file says how to delete it.
///
/// A bug that leaves a task waiting forever is seen as an upstream iterator that is never
/// released: the canary waits for the release with a deadline that only bounds the failure (the
/// fixed operator releases it at once).
@Suite("swift-async-algorithms 1.1.4 bugs pipesh works around")
struct AsyncAlgorithmsCanaryTests {
  /// `Workarounds/DebounceCancelledBeforeDemand.swift`.
  @Test func debounceAskedFromACancelledTaskKeepsItsUpstream() async throws {
    let probe = Probe(elements: [1])
    // In a function of its own, so the iterator is gone when it returns.
    func askTwice() async throws {
      var debounced = probe.debounce(for: .milliseconds(1)).makeAsyncIterator()
      #expect(try await debounced.next() == 1)
      // Asked again from a task cancelled before it asks: the debounce ends ...
      let again = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await debounced.next()
      }
      #expect(try await again.value == nil)
    }
    try await askTwice()
    // ... and should let go of its upstream.
    await withKnownIssue("AA 1.1.4: debounce finishes without ending its iteration task") {
      #expect(await probe.released.happens(within: .seconds(2)))
    }
  }

  /// `Workarounds/ShareTornDownWhileAsking.swift`.
  @Test func shareTornDownWhileItsTaskAsksKeepsItsUpstream() async throws {
    let probe = Probe(elements: [])
    let consumer = Task {
      var side = probe.share(bufferingPolicy: .unbounded).makeAsyncIterator()
      return try await side.next()
    }
    // The share's iteration task is inside the upstream's `next()`; the only consumer leaves, and
    // with it the shared sequence.
    #expect(await probe.asked.happens(within: .seconds(60)))
    consumer.cancel()
    _ = try await consumer.value
    await withKnownIssue("AA 1.1.4: share's iteration task waits for demand after its teardown") {
      #expect(await probe.released.happens(within: .seconds(2)))
    }
  }

  /// `Workarounds/DroppedBufferKeepsIterating.swift`.
  @Test func bufferDroppedBeforeItsEndKeepsItsUpstream() async throws {
    let probe = Probe(elements: [1, 2, 3])
    func askOnce() async throws {
      var buffered = probe.buffer(policy: .bounded(1)).makeAsyncIterator()
      #expect(try await buffered.next() == 1)
    }
    try await askOnce()
    await withKnownIssue("AA 1.1.4: a dropped buffer's producer task waits for demand") {
      #expect(await probe.released.happens(within: .seconds(2)))
    }
  }

  /// `Workarounds/FlatMapLatestLosesFailures.swift`.
  @Test func flatMapLatestLosesOrHoldsBackAnUpstreamFailure() async throws {
    let go = Event()
    let upstream = Probe(elements: [1], thenWait: false, thenThrow: true, gate: go)
    let pipeline = Probe(elements: [10])
    let flattened = upstream.flatMapLatest { _ in pipeline }
    var iterator = flattened.makeAsyncIterator()
    #expect(try await iterator.next() == 10)
    // The upstream fails while nobody asks. AA either loses the error (its upstream task was
    // inside the upstream's `next()`: the iteration ends, and with it the pipeline) or never
    // reads the upstream again (it waited for demand: the next question goes to the quiet
    // pipeline only). Either way the next question does not get the failure.
    go.signal()
    _ = await pipeline.released.happens(within: .seconds(2))
    let failed = Event()
    let asking = Task {
      do {
        _ = try await iterator.next()
      } catch is Offline {
        failed.signal()
      }
    }
    await withKnownIssue("AA 1.1.4: flatMapLatest loses or holds back its upstream's failure") {
      #expect(await failed.happens(within: .seconds(2)))
    }
    asking.cancel()
  }
}

private struct Offline: Error {}

/// Something that happens once, awaited with a deadline.
private struct Event: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Void.self)
  }

  func signal() {
    continuation.yield()
  }

  /// Whether it happened, or happens before `deadline` has passed.
  func happens(within deadline: Duration) async -> Bool {
    let stream = stream
    return await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await _ in stream { return true }
        return false
      }
      group.addTask {
        try? await Task.sleep(for: deadline)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }
}

/// An upstream that hands over its elements, then waits until cancelled (or not, `thenWait`
/// false) and ends (or fails, `thenThrow`); it says when it is asked while waiting, when it ended, and when its iterator is released.
private struct Probe: AsyncSequence, Sendable {
  typealias Element = Int
  let elements: [Int]
  var thenWait = true
  var thenThrow = false
  /// Waited for before the end.
  var gate: Event?
  let asked = Event()
  let ended = Event()
  let released = Event()

  func makeAsyncIterator() -> Iterator { Iterator(probe: self) }

  final class Iterator: AsyncIteratorProtocol {
    private let probe: Probe
    private var index = 0

    init(probe: Probe) {
      self.probe = probe
    }

    func next() async throws -> Int? {
      if index < probe.elements.count {
        index += 1
        return probe.elements[index - 1]
      }
      if probe.thenWait {
        probe.asked.signal()
        try? await Task.sleep(for: .seconds(3600))
      }
      if let gate = probe.gate { _ = await gate.happens(within: .seconds(60)) }
      probe.ended.signal()
      if probe.thenThrow { throw Offline() }
      return nil
    }

    deinit {
      probe.released.signal()
    }
  }
}
