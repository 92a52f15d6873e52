import AsyncAlgorithms
import Synchronization
import Testing
import VirtualTime

/// The virtual clock in process, without the engine: time stands still while a task can run and
/// jumps to the next deadline when all wait; what is due at one instant runs in the order it
/// became runnable; a run that can never end is said to stall. Each run is repeated: the order
/// must be the same every time, in every build.
@Suite("the virtual clock")
struct VirtualDriverTests {
  static func clock(_ driver: VirtualDriver) -> PipeClock { PipeClock(kind: .virtual(driver)) }

  @Test func timeJumpsToTheNextDeadline() async {
    let driver = VirtualDriver()
    defer { driver.shutdown() }
    let clock = Self.clock(driver)
    let woke = await driver.run {
      try? await clock.sleep(for: .seconds(1000))
      return clock.now
    }
    #expect(woke == PipeInstant(offset: .seconds(1000)))
    // Settling runs what is due now and moves no time.
    await driver.settle()
    #expect(driver.now == PipeInstant(offset: .seconds(1000)))
  }

  @Test func whatIsDueAtOneInstantRunsInTheOrderItSlept() async {
    for _ in 1...20 {
      let driver = VirtualDriver()
      let clock = Self.clock(driver)
      let order = await driver.run {
        await withTaskGroup(of: Int.self) { group in
          for index in 0..<5 {
            group.addTask {
              try? await clock.sleep(until: PipeInstant(offset: .seconds(1)), tolerance: nil)
              return index
            }
          }
          var order: [Int] = []
          for await index in group { order.append(index) }
          return order
        }
      }
      driver.shutdown()
      #expect(order == [0, 1, 2, 3, 4])
    }
  }

  @Test func aRunThatCanNeverEndStalls() async {
    let driver = VirtualDriver()
    defer { driver.shutdown() }
    let stalls = Atomic<Int>(0)
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let ended = await driver.run(
      until: {
        for await _ in stream {}
        return "ended"
      },
      onStall: {
        // Nothing can run and nobody sleeps: only an outside change (here, the stream's end)
        // lets the run go on.
        stalls.add(1, ordering: .relaxed)
        continuation.finish()
      })
    #expect(ended == "ended")
    #expect(stalls.load(ordering: .relaxed) == 1)
    #expect(driver.now == PipeInstant(offset: .zero))
  }

  /// AA's debounce on the virtual clock: 1 at 0 s, 2 at 0.5 s, 3 at 2 s and the end. The quiet
  /// second after 2 ends at 1.5 s; 3 is let out when the input ends.
  @Test func debounceLetsOutWhatAQuietSecondFollows() async {
    for _ in 1...5 {
      let driver = VirtualDriver()
      let clock = Self.clock(driver)
      let seen = await driver.run {
        let (input, feed) = AsyncStream.makeStream(of: Int.self)
        let producer = Task {
          for (element, at) in [(1, 0.0), (2, 0.5), (3, 2.0)] {
            try? await clock.sleep(until: PipeInstant(offset: .seconds(at)), tolerance: nil)
            feed.yield(element)
          }
          feed.finish()
        }
        var seen: [String] = []
        for await element in input.debounce(for: .seconds(1), clock: clock) {
          seen.append("\(element) at \(clock.now.offset)")
        }
        await producer.value
        return seen
      }
      driver.shutdown()
      #expect(seen == ["2 at 1.5 seconds", "3 at 2.0 seconds"])
    }
  }

  /// A run's task on a driver that runs known code prefers no executor (a hop to the generic
  /// executor must not go back through the driver's queue, nor take the task's lock), yet what
  /// resumes it from another thread (a read delivered, a real-clock job's send) brings it back to
  /// the driver's thread, not to the global executor; on any other driver it prefers the driver.
  @Test(arguments: [true, false])
  func aRunResumedFromAnotherThreadGoesOnOnTheDriversThread(runsKnownCode: Bool) async {
    let driver = VirtualDriver(runsKnownCode: runsKnownCode)
    defer { driver.shutdown() }
    let waiting = Mutex<UnsafeContinuation<Void, Never>?>(nil)
    async let onDriver = driver.run {
      await withUnsafeContinuation { continuation in waiting.withLock { $0 = continuation } }
      return VirtualDriver.current === driver
    }
    // Resumed from this test's thread, once the run's task has suspended.
    await Self.waitUntilSuspended(driver, waiting)?.resume()
    #expect(await onDriver)
  }

  /// A run's task resumed from another driver's thread (a `draw`'s job sending into a channel a
  /// session job reads) goes on on its own driver's thread, not the resumer's.
  @Test(arguments: [true, false])
  func aRunResumedFromAnotherDriverGoesOnOnItsOwn(runsKnownCode: Bool) async {
    let (own, other) = (VirtualDriver(runsKnownCode: runsKnownCode), VirtualDriver(runsKnownCode: true))
    defer {
      own.shutdown()
      other.shutdown()
    }
    let waiting = Mutex<UnsafeContinuation<Void, Never>?>(nil)
    async let onOwn = own.run {
      await withUnsafeContinuation { continuation in waiting.withLock { $0 = continuation } }
      return VirtualDriver.current === own
    }
    let suspended = await Self.waitUntilSuspended(own, waiting)
    _ = await other.run {
      suspended?.resume()
      return true
    }
    #expect(await onOwn)
  }

  /// The continuation a run's task left in `waiting`, once that task has suspended: the driver is
  /// settled (every ready task has run as far as it can) until it is there, and once more after.
  static func waitUntilSuspended(
    _ driver: VirtualDriver, _ waiting: borrowing Mutex<UnsafeContinuation<Void, Never>?>
  ) async -> UnsafeContinuation<Void, Never>? {
    while waiting.withLock({ $0 == nil }) { await driver.settle() }
    await driver.settle()
    return waiting.withLock { $0 }
  }

  /// MarbleTesting's driver runs the user's code: a task that code starts with `Task { }` may call
  /// `Task.yield()`, which enqueues on the task's current executor, not through the global-enqueue
  /// hook. It must stay on the driver's thread, and so must the run's own task.
  @Test func aTaskThatYieldsStaysOnTheDriversThread() async {
    let driver = VirtualDriver()
    defer { driver.shutdown() }
    let (root, started) = await driver.run {
      await Task.yield()
      let root = VirtualDriver.current === driver
      let started = await Task { @Sendable in
        await Task.yield()
        return VirtualDriver.current === driver
      }.value
      return (root, started)
    }
    #expect(root)
    #expect(started)
  }
}
