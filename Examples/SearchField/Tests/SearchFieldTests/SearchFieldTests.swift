import Foundation
import MarbleTesting
import PipeshProbe
import SearchField
import Testing

/// The view model typed into on MarbleTesting's clock, a step a second: "swi", a pause long enough
/// for its search to start (typing quiet for 2 s) but not to end (a search takes 5 s), then "ft".
@Suite struct SearchFieldTests {
  static func field(_ clock: TestClock, _ recorder: ProbeRecorder) throws -> SearchField<MarbleInput, TestClock> {
    SearchField(
      keys: try MarbleInput("swi--ft-------|", clock: clock), quiet: .seconds(2), clock: clock,
      recorder: recorder
    ) { query in
      try await clock.sleep(for: .seconds(5))
      return "\(query.count)"
    }
  }

  /// The search for "swi" started and was overtaken by "swift": only "swift"'s results (5) show.
  @Test func onlyTheNewestQuerysResultsShow() async {
    await expectMarbles("-------------5|") { clock in
      try Self.field(clock, ProbeRecorder(clock: clock)).results
    }
  }

  /// The same run recorded by its probes, written where `SEARCH_FIELD_TRACE` says (pipesh's own
  /// tests draw it), or beside this package's build otherwise.
  @Test func itsProbesRecordTheRun() async throws {
    let kept = ProbeRecorderBox()
    let marbles = await Marbles.record { clock in
      let recorder = ProbeRecorder(clock: clock)
      kept.recorder = recorder
      return try Self.field(clock, recorder).results
    }
    #expect(marbles.description == "-------------5|")
    let recorder = try #require(kept.recorder)
    let path =
      ProcessInfo.processInfo.environment["SEARCH_FIELD_TRACE"] ?? NSTemporaryDirectory() + "search-field.trace"
    try recorder.write(toFile: path)
  }
}

/// The recorder a run made, handed out of its closure.
final class ProbeRecorderBox: @unchecked Sendable {
  // @unchecked: set inside the one recording, read after it has ended.
  var recorder: ProbeRecorder?
}
