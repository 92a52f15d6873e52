import PipeViews
import Testing
import TraceFormat

@testable import PipeShell

/// `top` of an attached program, from traces made here: a live frame fits the screen it is drawn
/// on, and a rate is given only over a second of trace or more, counting the trace's first instant.
@Suite("attach's top")
struct AttachTopTests {
  /// A trace of `lanes` probes, each giving an element at each of `times` (in milliseconds).
  static func recording(lanes: Int, times: [Int]) throws -> TraceFile.Recording {
    let labels = (1...lanes).map { "probe\($0)" }
    var lines = [TraceFile.header(pipeline: "probes of a test", virtualClock: true, labels: labels)]
    for (index, label) in labels.enumerated() {
      lines.append(TraceFile.node(time: .zero, job: 1, node: index + 1, label: label, .start))
      for time in times {
        lines.append(TraceFile.node(time: .milliseconds(time), job: 1, node: index + 1, label: label, .element("x")))
      }
    }
    return try TraceFile.parse(lines.joined(separator: "\n") + "\n").get()
  }

  @Test func aLiveFrameFitsTheScreenAndCountsTheLanesLeftOut() throws {
    let trace = try Self.recording(lanes: 30, times: [0, 500, 1000, 2000])
    let frame = AttachSession.top(trace, live: true, width: 80, height: 10)
    #expect(frame.count == 10, "\(frame)")
    #expect(frame.allSatisfy { Format.columns($0) <= 80 }, "\(frame)")
    #expect(
      frame[0].hasPrefix("pipesh attach top · a frame a second, Ctrl-C stops · 30 lanes · up to +2.000s"), "\(frame)")
    #expect(frame[1].hasPrefix("PROBE"))
    // The heading, the titles, 7 lanes and the count of the 23 others.
    #expect(frame.last == "(23 more lanes below the screen)", "\(frame)")
    // A screen too low for any lane keeps the titles, and counts every lane.
    let low = AttachSession.top(trace, live: true, width: 80, height: 2)
    #expect(low.count == 3 && low[1].hasPrefix("PROBE") && low[2] == "(30 more lanes below the screen)", "\(low)")
    // Printed once (not live), every lane is there.
    #expect(AttachSession.top(trace, live: false).count == 32)
  }

  @Test func aRateNeedsASecondOfTraceAndCountsItsFirstInstant() throws {
    // 2 s of trace: the elements at 0, 0.5, 1 and 2 s are 4 over 2 s.
    let long = AttachSession.top(try Self.recording(lanes: 1, times: [0, 500, 1000, 2000]), live: false)
    #expect(long[2].split(separator: " ", omittingEmptySubsequences: true)[4] == "2.0", "\(long)")
    // Under a second of trace, no rate.
    let short = AttachSession.top(try Self.recording(lanes: 1, times: [0, 1]), live: false)
    #expect(short[2].split(separator: " ", omittingEmptySubsequences: true)[4] == "-", "\(short)")
  }
}
