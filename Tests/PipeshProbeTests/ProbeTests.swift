import AsyncAlgorithms
import Foundation
import Locking
import Testing
import TraceFormat

@testable import PipeshProbe

/// A clock whose time moves a second each time it is read: the events a probe records get times
/// in the order they were recorded, the same in every run.
struct SteppingClock: Clock {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
  }

  private let reads = Locked(0)
  var now: Instant {
    Instant(
      offset: .seconds(
        reads.withLock { reads in
          defer { reads += 1 }; return reads
        }))
  }
  var minimumResolution: Duration { .zero }
  func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}

/// A probe's lane as its events read back from the trace it wrote: `start`, `asked`, `1`, …
func lanes(_ recorder: ProbeRecorder) throws -> (TraceFile.Recording, [String: [String]]) {
  let recording = try TraceFile.parse(recorder.trace(program: "probe tests")).get()
  var lanes: [String: [String]] = [:]
  for event in recording.events {
    guard case .node(let id, let label, let kind, _) = event.what else { continue }
    let word =
      switch kind {
      case .element(let value): value
      case .failed(let reason): "failed: \(reason)"
      case .cancelled(let reason): "cancelled: \(reason)"
      default: kind.described
      }
    lanes["\(id) \(label)", default: []].append(word)
  }
  return (recording, lanes)
}

@Suite("PipeshProbe records a program's sequences")
struct ProbeTests {
  @Test func aProbeRecordsEachAskEachElementAndTheEnd() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    var seen: [Int] = []
    // No `try`: a probe of a sequence that cannot fail cannot fail either.
    for await number in [1, 2, 3].async.probe("numbers", into: recorder) { seen.append(number) }
    #expect(seen == [1, 2, 3])
    let (recording, lanes) = try lanes(recorder)
    #expect(recording.pipeline == "probes of probe tests")
    #expect(recording.labels == ["numbers"])
    #expect(recording.clock == "virtual")
    #expect(recording.dropped == 0)
    #expect(lanes["1 numbers"] == ["start", "asked", "1", "asked", "2", "asked", "3", "asked", "finished"])
    // Stamped by the clock as they came: a second apart, from 1s (the recorder read 0s when made).
    #expect(recording.events.map(\.time) == (1...9).map { .seconds($0) })
  }

  /// Each ask names the task that asked, numbered from 1 in the order the recorder first saw them;
  /// no other event names one, and a trace file says the same when read back.
  @Test func eachAskNamesItsTask() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    let probed = [1, 2].async.probe("shared", into: recorder)
    await Task { for await _ in probed {} }.value
    await Task { for await _ in probed {} }.value
    let recording = try TraceFile.parse(recorder.trace()).get()
    let asks = recording.events.filter {
      if case .node(_, _, .asked, _) = $0.what { true } else { false }
    }
    #expect(asks.map(\.task) == [1, 1, 1, 2, 2, 2])
    #expect(recording.events.filter { $0.task != nil }.count == asks.count)
  }

  @Test func eachIterationIsALaneOfItsOwn() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    let probed = [1, 2].async.probe("twice", into: recorder)
    for await _ in probed {}
    for await _ in probed {}
    let (recording, lanes) = try lanes(recorder)
    #expect(recording.labels == ["twice", "twice"])
    #expect(lanes["1 twice"] == lanes["2 twice"])
    #expect(lanes.count == 2)
  }

  @Test func aFailureIsRecordedAndPassedOn() async throws {
    struct Broken: Error, CustomStringConvertible { var description: String { "the disk is full" } }
    let recorder = ProbeRecorder(clock: SteppingClock())
    let failing = AsyncThrowingStream<Int, any Error> { continuation in
      continuation.yield(7)
      continuation.finish(throwing: Broken())
    }
    var caught: (any Error)?
    do {
      for try await _ in failing.probe("writes", into: recorder) {}
    } catch {
      caught = error
    }
    #expect(caught is Broken)
    #expect(try lanes(recorder).1["1 writes"] == ["start", "asked", "7", "asked", "failed: the disk is full"])
  }

  @Test func aConsumerThatStopsEarlyCancelsTheLane() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    let first = await (1...100).async.probe("many", into: recorder).first { $0 == 2 }
    #expect(first == 2)
    #expect(
      try lanes(recorder).1["1 many"]
        == ["start", "asked", "1", "asked", "2", "cancelled: its consumer stopped asking before its end"])
  }

  @Test func aFlightRecorderKeepsTheLastEventsAndCountsTheRest() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock(), keeping: .last(5))
    for await _ in (1...1000).async.probe("long", into: recorder) {}
    let (recording, lanes) = try lanes(recorder)
    // start, 1000 asks and elements, the last ask, finished: 2003 events, the last 5 kept.
    #expect(recording.dropped == 1998)
    #expect(recorder.notKept == 1998)
    #expect(lanes["1 long"] == ["999", "asked", "1000", "asked", "finished"])
  }

  @Test func aFlightRecorderHoldsOnlyTheNamesOfTheLanesItKeeps() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock(), keeping: .last(6))
    for request in 1...10_000 {
      for await _ in [request].async.probe("request \(request)", into: recorder) {}
    }
    let (recording, lanes) = try lanes(recorder)
    // An iteration is 5 events (start, asked, the element, asked, finished): the last 6 are the end
    // of request 9999's lane and all of request 10000's, renumbered from 1.
    #expect(recording.labels == ["request 9999", "request 10000"])
    #expect(lanes["1 request 9999"] == ["finished"])
    #expect(lanes["2 request 10000"] == ["start", "asked", "10000", "asked", "finished"])
    // Not one name per iteration ever made: at most about twice those of the kept events.
    #expect(recorder.namesHeld <= 2 * 6 + 16)
  }

  /// A trace read while a task records is one moment of the recording: at most the kept events,
  /// the elements in order. Run under ThreadSanitizer in process (the suite's `thread_targets`): a
  /// trace that read the recorder's storage after letting go of its lock raced the next event (a
  /// fetch over the socket did, once in a CI run).
  @Test func aTraceIsReadWhileATaskRecords() async throws {
    let recorder = ProbeRecorder(clock: ContinuousClock(), keeping: .last(500))
    let recorded = Locked(false)
    let recording = Task.detached {
      for await _ in (1...200_000).async.probe("numbers", into: recorder) {}
      recorded.withLock { $0 = true }
    }
    // Read for as long as the task records: each read's lines are counted (the header and at most
    // the 500 kept events), every 50th read is parsed (parsing them all took 20 s under
    // ThreadSanitizer).
    let reading = Task.detached {
      var (reads, longest, traces) = (0, 0, [String]())
      while !recorded.withLock({ $0 }) {
        let trace = recorder.trace()
        longest = max(longest, trace.utf8.lazy.filter { $0 == UInt8(ascii: "\n") }.count)
        reads += 1
        if reads % 50 == 0 { traces.append(trace) }
      }
      return (longest, traces)
    }
    let (longest, traces) = await reading.value
    #expect(longest <= 501)
    await recording.value
    for trace in traces {
      let events = try TraceFile.parse(trace).get().events
      #expect(events.count <= 500)
      let elements = events.compactMap { event -> Int? in
        guard case .node(_, _, .element(let value), _) = event.what else { return nil }
        return Int(value)
      }
      #expect(elements == Array(elements.first.map { $0..<($0 + elements.count) } ?? 0..<0))
    }
  }

  @Test func descriptionsAreBoundedOrRedacted() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    for await _ in [String(repeating: "x", count: 5000)].async.probe("long", into: recorder) {}
    for await _ in ["secret"].async.probe("redacted", into: recorder, describing: { _ in "•••" }) {}
    let lanes = try lanes(recorder).1
    #expect(lanes["1 long"]?[2] == String(repeating: "x", count: ProbeRecorder.longestDescription - 1) + "…")
    #expect(lanes["2 redacted"]?[2] == "•••")
  }

  /// swift-async-algorithms' zip asks each side from a task of its own: the probes record both
  /// sides, each in its order, from many tasks at once.
  @Test func probesInsideARealAAOperatorRecordFromItsTasks() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    let pairs = zip(
      (1...50).async.probe("left", into: recorder), (1...50).async.map { $0 * 10 }.probe("right", into: recorder)
    ).probe("zip", into: recorder)
    var count = 0
    for await (left, right) in pairs { count += right == left * 10 ? 1 : 0 }
    #expect(count == 50)
    // zip makes each side's iterator in that side's task: which side's lane is made (numbered)
    // first is up to the tasks, so the sides are found by name.
    let lanes = try lanes(recorder).1
    let named = Dictionary(
      uniqueKeysWithValues: lanes.map { ($0.key.split(separator: " ").dropFirst().joined(), $0.value) })
    #expect(Set(lanes.keys).isSuperset(of: ["1 zip"]) && lanes.count == 3)
    #expect(named["zip"]?.filter { $0.hasPrefix("(") }.count == 50)
    #expect(named["left"]?.prefix(4) == ["start", "asked", "1", "asked"])
    #expect(named["right"]?.contains("500") == true)
  }

  @Test func theTraceIsWrittenToAFile() async throws {
    let recorder = ProbeRecorder(clock: SteppingClock())
    for await _ in [1].async.probe("one", into: recorder) {}
    let path = "/tmp/pipesh-probe-tests-\(getpid()).trace"
    try recorder.write(toFile: path)
    defer { unlink(path) }
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == recorder.trace())
    // Yours alone, as attach's save writes it: a trace holds what the program's values say.
    var status = stat()
    #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    // A directory that is not there is an error naming the path.
    #expect(throws: ProbeWriteError.self) { try recorder.write(toFile: "/nonexistent/dir/x.trace") }
    #expect(written.hasPrefix("{\"pipesh\":\"trace\",\"version\":1,"))
    // Writes at once to one path (threads of a program, or two programs) each have a file of their
    // own until it replaces the trace: all succeed, and none is left beside it.
    let failures = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      do { try recorder.write(toFile: path) } catch { failures.withLock { $0 += 1 } }
    }
    #expect(failures.withLock { $0 } == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == recorder.trace())
    let folder = try FileManager.default.contentsOfDirectory(atPath: "/tmp")
    let name = String(path.split(separator: "/").last ?? "")
    #expect(folder.filter { $0.hasPrefix(name) } == [name], "files left beside the trace")
  }

  @Test func aTracesDroppedCountMustBeAWholeNumberNotBelowZero() {
    let header = #"{"pipesh":"trace","version":1,"pipeline":"p","clock":"real","labels":["a"]"#
    #expect(TraceFile.problem(in: header + #","dropped":3}"#) == nil)
    #expect(TraceFile.problem(in: header + #","dropped":-1}"#)?.message == "\"dropped\" must be 0 or more")
    #expect(
      TraceFile.problem(in: header + #","dropped":"many"}"#)?.message == "expected \"dropped\" to be a whole number")
  }
}
