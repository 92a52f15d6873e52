import PipeSema
import Testing

/// RxJS's marble syntax read as RxJS 7's `TestScheduler.parseMarbles` reads it in run mode, and
/// lanes written so that they read back as the same events.
@Suite("RxJS marble dialect")
struct RxJSMarbleTests {
  /// The events of a diagram as `frame: events`, `a`, `|`, `#`, `!`, for one-line comparisons.
  static func frames(_ text: String, frame: Duration = .milliseconds(1)) -> String {
    switch MarbleDiagram.parse(text, dialect: .rxjs, frame: frame) {
    case .success(let diagram):
      let steps = diagram.events.map { step in
        "\(step.step):"
          + step.events.map { event in
            switch event {
            case .value(let value): value
            case .finish: "|"
            case .fail: "#"
            case .cancel: "!"
            }
          }.joined()
      }
      return (steps + (diagram.neverEnds ? ["…"] : [])).joined(separator: " ")
    case .failure(let problem):
      return "error at \(problem.offset): \(problem.message)"
    }
  }

  /// The examples of RxJS's guide (docs_app/content/guide/testing/marble-testing.md, "Examples"),
  /// with the frames it gives them. For `a 9ms b 9s c|` the guide's page says 10,012 and 10,013,
  /// which RxJS's own code does not do: RxJS corrected the page to 9,011 and 9,012 (reactivex/rxjs
  /// #5988); pipesh counts as the code does.
  @Test(arguments: [
    ("------", "…"),
    ("|", "0:|"),
    ("#", "0:#"),
    ("--a--", "2:a …"),
    ("--a--b--|", "2:a 5:b 8:|"),
    ("--a--b--#", "2:a 5:b 8:#"),
    ("-a-^-b--|", "2:b 5:|"),
    ("--(abc)-|", "2:abc 8:|"),
    ("-----(a|)", "5:a|"),
    ("a 9ms b 9s c|", "0:a 10:b 9011:c 9012:|"),
    ("--a 2.5m b", "2:a 150003:b …"),
  ])
  func guideExamples(_ diagram: String, _ expected: String) {
    #expect(Self.frames(diagram) == expected)
  }

  /// The guide's time progression example: `-- 9ms a 9ms b 9ms (c|)` and the two ways it says one
  /// may write the same, all with `a` at 11.
  @Test func guideTimeProgressionSpellings() {
    let expected = "11:a 21:b 31:c|"
    #expect(Self.frames("-- 9ms a 9ms b 9ms (c|)") == expected)
    #expect(Self.frames("------- 4ms a 9ms b 9ms (c|)") == expected)
    #expect(Self.frames("-----------a 9ms b 9ms (c|)") == expected)
  }

  /// When a number is time and when it is values, as RxJS's `/^([0-9]+(?:\.[0-9]+)?)(ms|s|m) /`
  /// after a space or at the start decides.
  @Test(arguments: [
    ("a1msb", "0:a 1:1 2:m 3:s 4:b …"),
    ("a 1ms b", "0:a 2:b …"),
    ("10ms a|", "10:a 11:|"),
    ("a 1s|", "0:a 1:1 2:s 3:|"),
    ("a 1s |", "0:a 1001:|"),
    ("  2ms a", "2:a …"),
    ("a 1.5s b", "0:a 1501:b …"),
    ("a 1m b", "0:a 60001:b …"),
    ("1 2", "0:1 1:2 …"),
  ])
  func timeProgression(_ diagram: String, _ expected: String) {
    #expect(Self.frames(diagram) == expected)
  }

  /// In frames of 10ms a progression counts tens; one that is not a whole number of frames is an
  /// error at its column.
  @Test func progressionInFramesOfTheTick() {
    #expect(Self.frames("a 90ms b|", frame: .milliseconds(10)) == "0:a 10:b 11:|")
    #expect(Self.frames("a 95ms b|", frame: .milliseconds(10)).hasPrefix("error at 2: time progression '95ms'"))
    #expect(Self.frames("a 1.5ms b|").hasPrefix("error at 2: time progression '1.5ms' is not a whole number"))
    #expect(MarbleDiagram.parse("a 1ms b", dialect: .rxjs, frame: nil).isFailure)
  }

  /// Frame 0 is `^`: values before it are not seen; an end before it ends at frame 0.
  @Test func subscriptionPoint() {
    #expect(Self.frames("--a--^--b--|") == "3:b 6:|")
    #expect(Self.frames("a|-^-b") == "0:|")
    #expect(Self.frames("^(ab)|") == "1:ab 5:|")
  }

  @Test func unsubscriptionAndEnds() {
    #expect(Self.frames("a-b!") == "0:a 2:b 3:!")
    #expect(Self.frames("a(b!)c|") == "0:a 1:b!")
    #expect(Self.frames("a#b|") == "0:a 1:#")
  }

  @Test(arguments: [
    ("a(b", "error at 1: unterminated group '('"),
    ("a)b", "error at 1: ')' without '('"),
    ("((a))", "error at 1: '(' inside a group"),
    ("a^b^", "error at 3: a second subscription point '^'"),
    ("(a^)", "error at 2: '^' inside a group"),
  ])
  func malformed(_ diagram: String, _ expected: String) {
    #expect(Self.frames(diagram) == expected)
  }

  /// Written lanes: one character a frame, groups taking the frames after them, longer values as
  /// letters with a legend, and what is written reads back as the same events.
  @Test func writtenLanesReadBack() throws {
    let lanes: [[RxJSLanes.TimedEvent]] = [
      [(0, .value("10")), (0, .value("a")), (4, .value("b")), (6, .value("10")), (7, .finish)],
      [(2, .value("-")), (3, .value("12")), (5, .cancel)],
      [(1, .value("x")), (3, .fail)],
    ]
    let written = try RxJSLanes.write(lanes).get()
    #expect(written.lines == ["(ca)b-c|", "--de-!", "-x-#"])
    #expect(written.legendLine == "c = 10, d = -, e = 12")
    let values = Dictionary(uniqueKeysWithValues: written.legend.map { (String($0.letter), $0.value) })
    for (line, lane) in zip(written.lines, lanes) {
      let read = try MarbleDiagram.parse(line, dialect: .rxjs).get()
      let events = read.events.flatMap { step in
        step.events.map { event -> RxJSLanes.TimedEvent in
          if case .value(let letter) = event, let value = values[letter] { return (step.step, .value(value)) }
          return (step.step, event)
        }
      }
      #expect(events.map(\.frame) == lane.map(\.frame))
      #expect(events.map(\.event) == lane.map(\.event))
    }
  }

  /// A group whose characters would run into the next event cannot be written at that frame.
  @Test func groupsRunningIntoTheNextEvent() {
    let lanes: [[RxJSLanes.TimedEvent]] = [[(1, .value("a")), (1, .value("b")), (3, .value("c"))]]
    #expect(RxJSLanes.write(lanes).failure == .collision(lane: 0, frame: 1))
  }
}

extension Result {
  fileprivate var isFailure: Bool {
    if case .failure = self { true } else { false }
  }

  fileprivate var failure: Failure? {
    if case .failure(let failure) = self { failure } else { nil }
  }
}
