import AsyncAlgorithms
import PipeshProbe
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The typed-Swift side of `Scripts/bench`: the same work as pipesh's benchmark pipelines, written
/// directly over AsyncAlgorithms, built with the same settings. Prints `NAME SECONDS [EXTRA]`.

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func residentKilobytes() -> Int {
  Platform.residentKilobytes
}

/// The benchmarks run off the main actor, as pipesh's jobs do: top-level code in main.swift is
/// main-actor isolated, and iterating there would hop executors on every element.
enum Bench {
  nonisolated static func throughput() async -> String {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    for await _ in (1...1_000_000).async.map({ $0 * 2 }).filter({ $0 % 3 == 0 }) { count += 1 }
    return "throughput \(seconds(clock.now - start)) \(count)"
  }

  nonisolated static func merged() async -> String {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    for await _ in merge((1...500_000).async, (1...500_000).async) { count += 1 }
    return "merge \(seconds(clock.now - start)) \(count)"
  }

  nonisolated static func zipped() async -> String {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    for await _ in zip((1...500_000).async, (1...500_000).async) { count += 1 }
    return "zip \(seconds(clock.now - start)) \(count)"
  }

  /// The throughput chain with two probes (after the source, after the filter) into a flight
  /// recorder of the last 1000 events: what probing costs a program.
  nonisolated static func probed() async -> String {
    let clock = ContinuousClock()
    let recorder = ProbeRecorder(clock: clock, keeping: .last(1000))
    let start = clock.now
    var count = 0
    let chain = (1...1_000_000).async.probe("source", into: recorder).map { $0 * 2 }.filter { $0 % 3 == 0 }
    for await _ in chain.probe("filtered", into: recorder) { count += 1 }
    return "probed \(seconds(clock.now - start)) \(count)"
  }

  /// A probe's flight recorder over 10M elements: the resident memory after 1M and after 10M (kB),
  /// which `.last(1000)` keeps flat.
  nonisolated static func probeMemory() async -> String {
    let recorder = ProbeRecorder(clock: ContinuousClock(), keeping: .last(1000))
    var count = 0
    var afterOne = 0
    for await _ in (1...10_000_000).async.probe("long", into: recorder) {
      count += 1
      if count == 1_000_000 { afterOne = residentKilobytes() }
    }
    return "probe-memory \(afterOne) \(residentKilobytes()) \(recorder.notKept)"
  }

  /// The 10M chain as a plain Swift loop with pipesh's checked arithmetic: the limit an
  /// interpreter is measured against. The bound comes from the command line, so the optimizer
  /// cannot fold the loop away.
  nonisolated static func loop(_ last: Int) -> String {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    for x in 1...last {
      let (doubled, overflow) = x.multipliedReportingOverflow(by: 2)
      if overflow { return "loop overflow" }
      if doubled % 3 == 0 { count += 1 }
    }
    return "loop \(seconds(clock.now - start)) \(count)"
  }

  /// Raw tasks, each iterating an AsyncTimerSequence: memory per task and the time to cancel all.
  nonisolated static func tasks(_ count: Int) async -> String {
    let clock = ContinuousClock()
    let before = residentKilobytes()
    var tasks: [Task<Void, Never>] = []
    for _ in 0..<count {
      tasks.append(
        Task {
          for await _ in AsyncTimerSequence(interval: .seconds(1), clock: ContinuousClock()) {}
        })
    }
    try? await Task.sleep(for: .milliseconds(500))
    let after = residentKilobytes()
    let start = clock.now
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    return "tasks \(seconds(clock.now - start)) \(Double(after - before) / Double(count))"
  }
}

let mode = CommandLine.arguments.dropFirst().first ?? "throughput"
switch mode {
case "throughput": print(await Bench.throughput())
case "merge": print(await Bench.merged())
case "probed": print(await Bench.probed())
case "probe-memory": print(await Bench.probeMemory())
case "zip": print(await Bench.zipped())
case "tasks": print(await Bench.tasks(Int(CommandLine.arguments.dropFirst(2).first ?? "10000") ?? 10_000))
case "loop": print(Bench.loop(Int(CommandLine.arguments.dropFirst(2).first ?? "10000000") ?? 10_000_000))
default: print("usage: PipeBench throughput|merge|zip|tasks [N]|loop [N]")
}
