import PipeSema
import Testing

/// `pipesh serve`'s page writes an edited `marble "…"` lane back into the script by one rule (one
/// character a tick: `-` an empty tick, a one-character value as itself, a longer one as
/// `'value'`, two or more values of one tick as `[ab]`, then `|` or `^` at the end's tick, nothing
/// after it); pipesh's reading of swift-async-algorithms' notation must read every such text back
/// as the same events at the same ticks.
@Suite("marble lanes written as the page writes them")
struct MarbleSerialisationTests {
  /// A lane as the page holds it: values by tick (0 is the text's first character), and its end.
  struct Lane: CustomStringConvertible {
    var values: [Int: [String]]
    var end: (tick: Int, failed: Bool)?

    /// The text the page writes for it.
    var written: String {
      let last = end?.tick ?? (values.keys.max() ?? -1)
      var text = ""
      for tick in 0...max(last, 0) where tick <= last {
        if let end, end.tick == tick, values[tick] == nil {
          text += end.failed ? "^" : "|"
          break
        }
        let here = (values[tick] ?? []).map(Self.written)
        switch here.count {
        case 0: text += "-"
        case 1: text += here[0]
        default: text += "[" + here.joined() + "]"
        }
      }
      return text
    }

    static func written(_ value: String) -> String {
      value.count == 1 && value.allSatisfy { $0.isLetter || $0.isNumber } ? value : "'" + value + "'"
    }

    /// The events of each step the text must read as (step = tick + 1, from step 1), the values
    /// of each tick in order.
    var steps: [[MarbleDiagram.Event]] {
      let last = end?.tick ?? (values.keys.max() ?? -1)
      guard last >= 0 else { return [] }
      return (0...last).map { tick in
        var events = (values[tick] ?? []).map(MarbleDiagram.Event.value)
        if let end, end.tick == tick { events.append(end.failed ? .fail : .finish) }
        return events
      }
    }

    var description: String { written }
  }

  /// A small deterministic generator, so that every run tries the same lanes.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static let values = [
    "a", "b", "z", "Q", "0", "7", "hello", "10", "a b", "x-y", "[1]", "|", "^", ";", "-", "é", "e\u{301}", "👍🏽", "🇫🇷",
    "日本",
  ]

  static func lanes(count: Int) -> [Lane] {
    var generator = Generator(state: 42)
    return (0..<count).map { _ in
      var lane = Lane(values: [:], end: nil)
      let length = generator.next(12)
      for tick in 0..<length where generator.next(3) > 0 {
        lane.values[tick] = (0...generator.next(3)).map { _ in values[generator.next(values.count)] }
      }
      switch generator.next(3) {
      case 0: break
      case let choice:
        // The end after the last value, or at an empty tick beyond it.
        let after = (lane.values.keys.max() ?? -1) + 1 + generator.next(3)
        lane.end = (after, choice == 2)
      }
      return lane
    }
  }

  @Test("every lane the page writes reads back as its events", arguments: lanes(count: 300))
  func readsBack(_ lane: Lane) throws {
    let diagram = try MarbleDiagram.parse(lane.written).get()
    #expect(diagram.steps.map(\.step) == Array(1...max(1, lane.steps.count)).prefix(lane.steps.count).map { $0 })
    #expect(diagram.steps.map(\.events) == lane.steps, "\(lane.written)")
  }

  @Test func oneCharacterValuesAreWholeCharacters() throws {
    // An accent written as its own scalar, a flag, an emoji with a skin tone: one value a tick each.
    let diagram = try MarbleDiagram.parse("e\u{301}🇫🇷-👍🏽|").get()
    #expect(diagram.steps.map(\.events) == [[.value("e\u{301}")], [.value("🇫🇷")], [], [.value("👍🏽")], [.finish]])
  }

  @Test func aTextWithNoEndFinishesAtItsLastValue() throws {
    let diagram = try MarbleDiagram.parse("a-[b'hello']").get()
    #expect(diagram.events.last?.step == 3)
    #expect(diagram.events.last?.events == [.value("b"), .value("hello"), .finish])
  }
}
