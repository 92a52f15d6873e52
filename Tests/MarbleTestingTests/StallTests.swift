import MarbleTesting
import Testing
import VirtualTime

/// A run that can never go on (every task waits, none on the clock) is a stall: its body is
/// cancelled, and a body that ignores its cancellation is left behind, so a test never hangs.
@Suite struct StallTests {
  @Test func aStalledRunThatGoesOnAfterItsCancellationGivesItsValue() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let value = await TestClock.run { _ -> String in
      await withTaskCancellationHandler {
        for await _ in stream {}
        return "cancelled, then ended"
      } onCancel: {
        continuation.finish()
      }
    }
    #expect(value == "cancelled, then ended")
  }

  @Test func aRunWhoseCancellationWakesNothingIsLeftAndTheTestGoesOnOffItsClock() async {
    let value = await TestClock.run { _ -> Int in
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      return 1
    }
    #expect(value == nil)
    #expect(VirtualDriver.current == nil, "the caller goes on on the clock's thread")
    // The next run is a run of its own, from time zero.
    #expect(await TestClock.run { clock in clock.now } == .zero)
  }
}
