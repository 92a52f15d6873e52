import AsyncAlgorithms
import MarbleTesting
import Testing
import VirtualTime

/// MarbleTesting's runs and the shell's virtual clocks are one driver's (`VirtualDriver`), each
/// clock with a thread of its own: a marble run and another clock's run side by side each keep
/// their own tasks (merge's, debounce's, a timer's), and each sees only its own time.
@Suite struct HookChainTests {
  @Test func aMarbleRunAndAnotherVirtualClockRunSideBySide() async throws {
    let driver = VirtualDriver()
    defer { driver.shutdown() }
    let clock = PipeClock(kind: .virtual(driver))
    async let ticks = driver.run {
      var count = 0
      for await _ in AsyncTimerSequence(interval: .seconds(1), clock: clock).prefix(100) { count += 1 }
      return (count, clock.now)
    }
    VirtualDriver.installHook()
    await expectMarbles("abcdefgh|") { clock in
      merge(try! MarbleInput("a-c-e-g-|", clock: clock), try! MarbleInput("-b-d-f-h", clock: clock))
    }
    await expectMarbles("------d----e-----g-|") { clock in
      try! MarbleInput("abcd----e---f-g----|", clock: clock).debounce(for: .seconds(3), clock: clock)
    }
    let (count, end) = await ticks
    #expect(count == 100)
    #expect(end == PipeInstant(offset: .seconds(100)))
  }
}
