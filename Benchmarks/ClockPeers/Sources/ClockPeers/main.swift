import AsyncAlgorithms
import Clocks
import MarbleTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Usage: ClockPeers CLOCK WORKLOAD COUNT, with CLOCK `marbletesting` or `swift-clocks` and WORKLOAD
// `debounce` (a 1 s timer, its first COUNT ticks, debounced 0.5 s), `throttle` (the same, throttled
// 2 s) or `merge` (two 1 s timers of COUNT/2 ticks each, merged). Prints the seconds the run took
// on the real clock and how many elements came out. pipesh's side is `pipesh --virtual-time` with
// `timer 1 | take COUNT | debounce 0.5 | count` and its like (Scripts/bench).

/// How many elements `workload` gives on `clock`.
func count<C: Clock>(_ workload: String, _ total: Int, on clock: C) async -> Int where C.Duration == Duration {
  func timer(_ ticks: Int) -> AsyncPrefixSequence<AsyncTimerSequence<C>> {
    AsyncTimerSequence(interval: .seconds(1), clock: clock).prefix(ticks)
  }
  var seen = 0
  switch workload {
  case "debounce":
    for await _ in timer(total).debounce(for: .milliseconds(500), clock: clock) { seen += 1 }
  case "throttle":
    for await _ in timer(total)._throttle(for: .seconds(2), clock: clock) { seen += 1 }
  case "merge":
    for await _ in merge(timer(total / 2), timer(total / 2)) { seen += 1 }
  default:
    print("ClockPeers: no workload '\(workload)' (debounce, throttle, merge)")
    exit(2)
  }
  return seen
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let total = Int(arguments[arguments.startIndex + 2]), total > 0 else {
  print("usage: ClockPeers marbletesting|swift-clocks debounce|throttle|merge COUNT")
  exit(2)
}
let (peer, workload) = (arguments[arguments.startIndex], arguments[arguments.startIndex + 1])
let wall = ContinuousClock()
let start = wall.now
let seen: Int?
switch peer {
case "marbletesting":
  seen = await MarbleTesting.TestClock.run { clock in await count(workload, total, on: clock) }
case "swift-clocks":
  // As swift-clocks' documentation runs a timer: start the work, then run the clock out.
  let clock = Clocks.TestClock()
  async let counted = count(workload, total, on: clock)
  await clock.run(timeout: .seconds(600))
  seen = await counted
default:
  print("ClockPeers: no clock '\(peer)' (marbletesting, swift-clocks)")
  exit(2)
}
let elapsed = start.duration(to: wall.now)
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("\(seconds) \(seen.map(String.init) ?? "none")")
