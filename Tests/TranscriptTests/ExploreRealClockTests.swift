import Testing

/// `explore` is sound for what the real clock does: every result a racy pipeline gives on the real
/// clock is among the outcomes `explore` finds for it (issue 50). It checks inclusion only, never
/// that the real clock gave several results, and each timer ticks once, so no load on the machine
/// can reorder what the pipeline does into something no order gives (two ticks of one timer could
/// overtake a late tick of the other).
@Suite("explore against the real clock")
struct ExploreRealClockTests {
  static let racy = [
    #"merge(timer 0.02 | take 1 | map { "a" }, timer 0.02 | take 1 | map { "b" }) | reduce "" { $0 + $1 }"#
  ]

  @Test("every real-clock result is an explored outcome", arguments: racy)
  func realResultsAreExplored(_ pipeline: String) throws {
    let explored = try Pipesh.run(["--virtual-time", "-c", "explore \(pipeline) orders: 100000"])
    #expect(explored.status == 0, "\(explored.stderr)")
    let lines = explored.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.contains("(all)") == true, "\(lines.first ?? "")")
    let outcomes = Set(lines.filter { $0.hasPrefix("printed: ") }.map { String($0.dropFirst("printed: ".count)) })
    #expect(!outcomes.isEmpty)
    for _ in 0..<5 {
      let real = try Pipesh.run(["-c", pipeline])
      #expect(real.status == 0, "\(real.stderr)")
      let printed = real.stdout.split(separator: "\n").map(String.init)
      #expect(printed.count == 1)
      for line in printed {
        #expect(outcomes.contains(line), "the real clock gave \(line); explore found \(outcomes.sorted())")
      }
    }
  }
}
