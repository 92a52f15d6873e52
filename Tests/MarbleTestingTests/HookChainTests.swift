import AsyncAlgorithms
import MarbleTesting
import Testing
import VirtualTime

/// pipesh's own tests share a process with these, and VirtualTime's driver installs the runtime's
/// global-enqueue hook too. Whichever is installed last passes the other's jobs on, so a marble
/// run's unstructured tasks (merge's, debounce's) stay on its driver either way; a hook that did
/// not would leave them on the global executor, and the run would stall.
@Suite struct HookChainTests {
  @Test func aVirtualDriverInstalledAfterwardsLeavesMarbleRunsTheirTasks() async throws {
    // The marble driver's hook first, then the virtual driver's over it.
    await expectMarbles("a|") { clock in try! MarbleInput("a|", clock: clock) }
    VirtualDriver.installHook()
    await expectMarbles("abcdefgh|") { clock in
      merge(try! MarbleInput("a-c-e-g-|", clock: clock), try! MarbleInput("-b-d-f-h", clock: clock))
    }
    await expectMarbles("------d----e-----g-|") { clock in
      try! MarbleInput("abcd----e---f-g----|", clock: clock).debounce(for: .seconds(3), clock: clock)
    }
  }
}
