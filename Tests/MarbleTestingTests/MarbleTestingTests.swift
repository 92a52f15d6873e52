import AsyncAlgorithms
import MarbleTesting
import Testing

/// A user's own operator: each element passed on `interval` after it arrived (on any clock).
struct Delayed<Base: AsyncSequence, C: Clock>: AsyncSequence where Base.Element: Sendable {
  typealias Element = Base.Element
  let base: Base
  let interval: C.Duration
  let clock: C

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let interval: C.Duration
    let clock: C

    mutating func next() async throws -> Element? {
      guard let element = try await base.next() else { return nil }
      try await clock.sleep(for: interval)
      return element
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), interval: interval, clock: clock) }
}

extension AsyncSequence where Element: Sendable {
  func delayed<C: Clock>(by interval: C.Duration, clock: C) -> Delayed<Self, C> {
    Delayed(base: self, interval: interval, clock: clock)
  }
}

@Suite struct MarbleTestingTests {
  @Test func aHoldingExpectationRecordsNoIssue() async throws {
    let comparison = await expectMarbles("a--b-|") { clock in try! MarbleInput("a--b-|", clock: clock) }
    #expect(comparison?.holds == true)
  }

  @Test func aFailingExpectationSaysWhereAndDrawsBothLanes() async throws {
    var comparison: MarbleComparison?
    await withKnownIssue {
      comparison = await expectMarbles("a-c-e-|") { clock in try! MarbleInput("a-c---|", clock: clock) }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("at step 5: expected 'e', got nothing")
    }
    #expect(comparison?.message == "at step 5: expected 'e', got nothing")
    #expect(
      comparison?.drawing() == [
        "          1   5",
        "expected  a-c-e-|",
        "actual    a-c---|",
        "              ^",
      ])
  }

  @Test func aUserWrittenOperatorIsRecordedOnTheClock() async throws {
    let marbles = await Marbles.record { clock in
      try! MarbleInput("a-b---c|", clock: clock).delayed(by: .seconds(2), clock: clock)
    }
    // "c" arrives at 7s and is passed on at 9s; the input ended at 8s, seen when asked at 9s.
    #expect(marbles.description == "--a-b---[c|]")
  }

  @Test func stepsOtherThanASecondAndAHorizon() async throws {
    let marbles = await Marbles.record(step: .milliseconds(100), until: .milliseconds(500), markingCancellation: true) {
      clock in
      AsyncTimerSequence(interval: .milliseconds(200), clock: clock).map { _ in "t" }
    }
    #expect(marbles.description == "-t-t;")
  }

  @Test func anErrorIsACaret() async throws {
    let marbles = await Marbles.record { clock in try! MarbleInput("ab^", clock: clock) }
    #expect(marbles.description == "ab^")
  }

  /// Swift's `prefix(while:)` rethrows where its input can fail, so making it needs `try`, as
  /// pipesh --emit-test writes it: the build closure may throw.
  @Test func aBuildThatNeedsTryIsAccepted() async throws {
    await expectMarbles("1-2-|") { clock in try MarbleInput("1-2-3|", clock: clock).prefix { $0 < "3" } }
    let malformed = await Marbles.record { clock in try MarbleInput("a-[b", clock: clock) }
    #expect(malformed.description == "^")
  }

  @Test func debounceDrawsAsyncAlgorithmsOwnDiagram() async throws {
    await expectMarbles("------d----e-----g-|") { clock in
      try! MarbleInput("abcd----e---f-g----|", clock: clock).debounce(for: .seconds(3), clock: clock)
    }
    await expectMarbles("------d----e----[g|]") { clock in
      try! MarbleInput("abcd----e---f-g-|", clock: clock).debounce(for: .seconds(3), clock: clock)
    }
  }

  @Test func throttleDrawsAsyncAlgorithmsOwnDiagrams() async throws {
    await expectMarbles("a-c-e-g-i-k|") { clock in
      try! MarbleInput("abcdefghijk|", clock: clock)._throttle(for: .seconds(2), clock: clock)
    }
    await expectMarbles("a-b-d-f-h-j|") { clock in
      try! MarbleInput("abcdefghijk|", clock: clock)._throttle(for: .seconds(2), clock: clock, latest: false)
    }
  }

  @Test func mergeDrawsAsyncAlgorithmsOwnDiagram() async throws {
    await expectMarbles("abcdefgh|") { clock in
      merge(try! MarbleInput("a-c-e-g-|", clock: clock), try! MarbleInput("-b-d-f-h", clock: clock))
    }
  }

  @Test func bufferAndZipWhoseTasksAreUnstructured() async throws {
    await expectMarbles("a-b-c-|") { clock in
      try! MarbleInput("a-b-c-|", clock: clock).buffer(policy: .bounded(2))
    }
    await expectMarbles("-'ax'-'by'|") { clock in
      zip(try! MarbleInput("a-b-|", clock: clock), try! MarbleInput("-x-y|", clock: clock)).map { $0 + $1 }
    }
  }

  /// AA's own slow-consumer buffer diagrams: `,` holds the consumer's next request back a step,
  /// so the buffer fills and its policy drops (AA's TestBuffer, pasted).
  @Test func delayNextSlowsTheConsumerAsAAsDiagramsSay() async throws {
    let oldest = await expectMarbles("X,,,[1,],,[2,],[3,][5,]|") { clock in
      try! MarbleInput("X-12-   34-    5   |", clock: clock).buffer(policy: .bufferingOldest(2))
    }
    #expect(oldest?.holds == true)
    let newest = await expectMarbles("X,,,[1,],,[3,],[4,][5,]|") { clock in
      try! MarbleInput("X-12-   34    -5|", clock: clock).buffer(policy: .bufferingLatest(2))
    }
    #expect(newest?.holds == true)
    // Without the delays the consumer keeps up and nothing is dropped: the same input draws
    // another diagram, so the pacing is what the test checks.
    await withKnownIssue {
      await expectMarbles("X,,,[1,],,[2,],[3,][5,]|") { clock in
        try! MarbleInput("X-12-   34-    5   |", clock: clock)
      }
    }
  }

  @Test func twentyExpectationsInARowNeverSleepForReal() async throws {
    for _ in 0..<20 {
      await expectMarbles("------d----e-----g-|") { clock in
        try! MarbleInput("abcd----e---f-g----|", clock: clock).debounce(for: .seconds(3), clock: clock)
      }
    }
  }
}
