import AsyncAlgorithms
import Foundation
import Testing
import VirtualTime

/// One canary per swift-async-algorithms 1.1.4 bug that pipesh works around
/// (`Sources/PipeRuntime/Workarounds/`). Each runs the raw AA operator and records the bug as a
/// known issue: the day a new AA fixes it, `withKnownIssue` fails the test, and the workaround's
/// file says how to delete it.
///
/// They run on pipesh's virtual clock, whose one thread runs every task the operators start: a bug
/// that leaves a task waiting forever is seen, without any wall-clock deadline, as the clock
/// stalling (nothing can run, no timer is due) before the upstream iterator was released.
@Suite("swift-async-algorithms 1.1.4 bugs pipesh works around")
struct AsyncAlgorithmsCanaryTests {
  /// Runs `body` on a virtual clock of its own, then waits for `event` until nothing on the clock
  /// can run any more: whether it happened.
  static func onVirtualClock(
    waitingFor event: Event, _ body: @escaping @Sendable (PipeClock) async throws -> Void
  ) async -> Bool {
    let driver = VirtualDriver()
    defer { driver.shutdown() }
    let clock = PipeClock(kind: .virtual(driver))
    return await driver.run(
      until: {
        do {
          try await body(clock)
        } catch {
          Issue.record(error)
        }
        return await event.wait()
      }, onStall: { event.giveUp() })
  }

  /// `Workarounds/DebounceCancelledBeforeDemand.swift`.
  @Test func debounceAskedFromACancelledTaskKeepsItsUpstream() async throws {
    let probe = Probe(elements: [1])
    let released = await Self.onVirtualClock(waitingFor: probe.released) { (clock: PipeClock) async throws -> Void in
      var debounced = probe.debounce(for: .milliseconds(1), clock: clock).makeAsyncIterator()
      #expect(try await debounced.next() == 1)
      // Asked again from a task cancelled before it asks: the debounce ends, and should let go of
      // its upstream.
      let again = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await debounced.next()
      }
      #expect(try await again.value == nil)
    }
    withKnownIssue("AA 1.1.4: debounce finishes without ending its iteration task") {
      #expect(released)
    }
  }

  /// `Workarounds/ShareTornDownWhileAsking.swift`.
  @Test func shareTornDownWhileItsTaskAsksKeepsItsUpstream() async throws {
    let probe = Probe(elements: [])
    let released = await Self.onVirtualClock(waitingFor: probe.released) { (_: PipeClock) async throws -> Void in
      let consumer = Task {
        var side = probe.share(bufferingPolicy: .unbounded).makeAsyncIterator()
        return try await side.next()
      }
      // The share's iteration task is inside the upstream's `next()`; the only consumer leaves,
      // and with it the shared sequence.
      #expect(await probe.asked.wait())
      consumer.cancel()
      _ = try await consumer.value
    }
    withKnownIssue("AA 1.1.4: share's iteration task waits for demand after its teardown") {
      #expect(released)
    }
  }

  /// `Workarounds/DroppedBufferKeepsIterating.swift`.
  @Test func bufferDroppedBeforeItsEndKeepsItsUpstream() async throws {
    let probe = Probe(elements: [1, 2, 3])
    let released = await Self.onVirtualClock(waitingFor: probe.released) { (_: PipeClock) async throws -> Void in
      var buffered = probe.buffer(policy: .bounded(1)).makeAsyncIterator()
      #expect(try await buffered.next() == 1)
    }
    withKnownIssue("AA 1.1.4: a dropped buffer's producer task waits for demand") {
      #expect(released)
    }
  }

  /// `Workarounds/FlatMapLatestLosesFailures.swift`.
  @Test func flatMapLatestLosesOrHoldsBackAnUpstreamFailure() async throws {
    let go = Event()
    let upstream = Probe(elements: [1], thenWait: false, thenThrow: true, gate: go)
    let pipeline = Probe(elements: [10])
    let failed = Event()
    let flattened = IteratorBox(upstream.flatMapLatest { _ in pipeline }.makeAsyncIterator())
    // The upstream fails after the pipeline's one element, while nobody asks. AA either loses the
    // error (its upstream task was inside the upstream's `next()`: the iteration ends, and with it
    // the pipeline) or never reads the upstream again (it waited for demand: the next question
    // goes to the quiet pipeline only). Either way the next question does not get the failure.
    _ = await Self.onVirtualClock(waitingFor: pipeline.released) { (_: PipeClock) async throws -> Void in
      #expect(try await flattened.next() == 10)
      go.signal()
    }
    let answered = await Self.onVirtualClock(waitingFor: failed) { (_: PipeClock) async throws -> Void in
      Task {
        do {
          _ = try await flattened.next()
        } catch is Offline {
          failed.signal()
        }
      }
    }
    withKnownIssue("AA 1.1.4: flatMapLatest loses or holds back its upstream's failure") {
      #expect(answered)
    }
  }
}

private struct Offline: Error {}

/// An iterator kept between two runs of the clock; only one task uses it at a time.
private final class IteratorBox<Base: AsyncIteratorProtocol>: @unchecked Sendable where Base.Element == Int {
  // @unchecked: each `next()` is awaited before the next one starts.
  private var base: Base

  init(_ base: Base) {
    self.base = base
  }

  func next() async throws -> Int? {
    try await base.next()
  }
}

/// Something that happens once. `wait()` answers true when it has happened, false when given up
/// on (the clock stalled first).
final class Event: @unchecked Sendable {
  // @unchecked: the state is only touched under `lock`.
  private let lock = NSLock()
  private var happened = false
  private var waiters: [UnsafeContinuation<Bool, Never>] = []

  func signal() {
    let waiting = lock.withLock {
      happened = true
      defer { waiters = [] }
      return waiters
    }
    for waiter in waiting { waiter.resume(returning: true) }
  }

  func giveUp() {
    let waiting = lock.withLock {
      defer { waiters = [] }
      return waiters
    }
    for waiter in waiting { waiter.resume(returning: false) }
  }

  func wait() async -> Bool {
    await withUnsafeContinuation { continuation in
      let now = lock.withLock {
        if happened { return true }
        waiters.append(continuation)
        return false
      }
      if now { continuation.resume(returning: true) }
    }
  }
}

/// An upstream that hands over its elements, then waits until cancelled (or not, `thenWait`
/// false) and ends (or fails, `thenThrow`); it says when it is asked while waiting, when it
/// ended, and when its iterator is released.
private struct Probe: AsyncSequence, Sendable {
  typealias Element = Int
  let elements: [Int]
  var thenWait = true
  var thenThrow = false
  /// Waited for before the end.
  var gate: Event?
  let asked = Event()
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
        let cancelled = Event()
        await withTaskCancellationHandler {
          _ = await cancelled.wait()
        } onCancel: {
          cancelled.signal()
        }
      }
      if let gate = probe.gate { _ = await gate.wait() }
      if probe.thenThrow { throw Offline() }
      return nil
    }

    deinit {
      probe.released.signal()
    }
  }
}
