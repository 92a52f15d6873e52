import Foundation
import Locking
import PipeSema
import PipeShell
import PipeSyntax
import Testing

/// `draw P dialect: rxjs` and `marble "…" dialect: rxjs` agree: every lane draw writes reads back
/// as the events pipesh's own notation draws for the same run, and as a marble source draws the
/// same lane again; and RxJS's own expected diagrams are the lanes pipesh draws.
@Suite("RxJS marble dialect: draw writes, marble reads back")
struct RxJSRoundTripTests {
  /// Runs a script on the virtual clock: its standard output and error lines.
  static func run(_ script: String) async -> (out: [String], err: [String]) {
    let captured = Locked<(out: [String], err: [String])>(([], []))
    let console = Console()
    console.setLineWriter { line, stream in
      captured.withLock { if stream == .error { $0.err.append(line) } else { $0.out.append(line) } }
    }
    let shell = Shell(console: console, interactive: false, virtualTime: true)
    _ = await shell.engine.runScript(SourceFile(name: nil, text: script))
    shell.engine.close()
    return captured.withLock { $0 }
  }

  /// A drawing's labelled lanes (the ruler's first mark says where lanes start) and the legend
  /// under them, `a = 10, b = 12`, as letter → value.
  static func lanes(
    _ lines: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> (lanes: [(label: String, lane: String)], legend: [String: String]) {
    let ruler = try #require(lines.first, "no ruler", sourceLocation: sourceLocation)
    let indent = ruler.prefix(while: { $0 == " " }).count
    var lanes: [(label: String, lane: String)] = []
    var legend: [String: String] = [:]
    for line in lines.dropFirst() {
      if line.hasPrefix(" ") {
        legend.merge(try Self.legend(String(line.dropFirst(indent)), sourceLocation: sourceLocation)) { $1 }
      } else {
        let label = String(line.prefix(indent)).trimmingCharacters(in: .whitespaces)
        lanes.append((label, String(line.dropFirst(indent))))
      }
    }
    return (lanes, legend)
  }

  /// `a = 10, b = 'x, y'`: a value with a comma, a quote or a space at an end is quoted, a quote
  /// in it doubled.
  static func legend(
    _ line: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> [String: String] {
    var legend: [String: String] = [:]
    var rest = Substring(line)
    while !rest.isEmpty {
      let letter = String(rest.prefix(1))
      try #require(rest.dropFirst().hasPrefix(" = "), "not a legend: \(line)", sourceLocation: sourceLocation)
      rest = rest.dropFirst(4)
      var value = ""
      if rest.first == "'" {
        rest = rest.dropFirst()
        while let character = rest.first {
          rest = rest.dropFirst()
          if character == "'" {
            guard rest.first == "'" else { break }
            rest = rest.dropFirst()
          }
          value.append(character)
        }
      } else {
        let end = rest.firstRange(of: ", ")?.lowerBound ?? rest.endIndex
        value = String(rest[..<end])
        rest = rest[end...]
      }
      legend[letter] = value
      if rest.hasPrefix(", ") { rest = rest.dropFirst(2) }
    }
    return legend
  }

  /// Events as `step: events` on pipesh's own grid (column N: tick N, the start drawn in column 1).
  static func onPipeshGrid(_ steps: [MarbleDiagram.Step], legend: [String: String]) -> [String] {
    var columns: [(Int, [MarbleDiagram.Event])] = []
    for step in steps {
      let column = max(1, step.step)
      let events = step.events.map { event -> MarbleDiagram.Event in
        if case .value(let letter) = event, let value = legend[letter] { return .value(value) }
        return event
      }
      if let last = columns.last, last.0 == column {
        columns[columns.count - 1].1 += events
      } else {
        columns.append((column, events))
      }
    }
    return columns.map { "\($0.0): " + $0.1.map(\.notation).joined() }
  }

  /// Pipelines with the tick (and options) to draw them with: operators that drop, hold and
  /// merge, values longer than a character, events at the start, a failure, a horizon.
  static let pipelines: [(pipeline: String, options: String)] = [
    ("(marble \"abcdefghijk|\" dialect: rxjs) | throttle 2ms", "tick: 1ms"),
    ("(marble \"abcd----e---f-g----|\" dialect: rxjs) | debounce 3ms", "tick: 1ms"),
    ("merge(marble \"a-c-e-g-|\", marble \"-b-d-f-h|\")", "tick: 1s"),
    ("timer 1 | take 4 | map { $0 * 10 }", "tick: 1s"),
    ("range 1 3 | map { $0 * 10 }", "tick: 1s"),
    ("timer 1 | take 4 | map { 12 / (2 - $0) }", "tick: 1s"),
    ("timer 1 | map { $0 * 2 }", "tick: 1s until: 4"),
    ("merge(timer 1 | take 2, timer 1 | take 2)", "tick: 250ms"),
    ("zip(marble \"ab|\", marble \"-xy|\") | map { $0.0 + $0.1 }", "tick: 1s"),
    ("(marble \"-a--(bc)-----------d-------|\" dialect: rxjs tick: 10ms) | debounce 50ms", "tick: 10ms"),
  ]

  @Test(arguments: pipelines)
  func drawnLanesReadBack(_ pipeline: String, _ options: String) async throws {
    let (tick, tickText) = try #require(Self.tick(in: options))
    let rxjs = await Self.run("draw \(pipeline) \(options) dialect: rxjs")
    let pipesh = await Self.run("draw \(pipeline) \(options)")
    #expect(!rxjs.err.contains { $0.hasPrefix("error: draw") }, "\(rxjs.err)")
    let (lanes, legend) = try Self.lanes(rxjs.out)
    let (own, _) = try Self.lanes(pipesh.out)
    try #require(lanes.count == own.count && lanes.count >= 2, "\(rxjs.out) \(pipesh.out)")
    for ((label, lane), (ownLabel, ownLane)) in zip(lanes, own) {
      #expect(label == ownLabel)
      // What the lane says happened is what pipesh's own notation drew for the run.
      let read = try MarbleDiagram.parse(lane, dialect: .rxjs, frame: tick).get()
      let drawn = try MarbleDiagram.parse(ownLane).get()
      #expect(
        Self.onPipeshGrid(read.events, legend: legend) == Self.onPipeshGrid(drawn.events, legend: [:]),
        "\(label): \(lane) against \(ownLane)")
      // And a marble source of the lane draws it again (the source stops at !, where the lane's
      // node was cancelled: it finishes there).
      let again = await Self.run(
        "draw (marble \"\(lane)\" dialect: rxjs tick: \(tickText)) tick: \(tickText) dialect: rxjs")
      let (redrawn, _) = try Self.lanes(again.out)
      #expect(redrawn.first?.lane == lane.replacing("!", with: "|"), "\(label): \(lane) drawn again: \(again)")
    }
  }

  /// RxJS's own diagrams: a source, an operator, the diagram RxJS expects, in frames of `tick`
  /// (RxJS's specs count frames of 10ms). pipesh draws the operator's lane as the expected
  /// diagram reads and draws.
  static let rxjsDiagrams: [(source: String, operator: String, expected: String, tick: String)] = [
    // spec/operators/debounceTime-spec.ts
    ("-a--bc--d---|", "debounce 20ms", "---a---c--d-|", "10ms"),
    ("-a--------b------c----|", "debounce 50ms", "------a--------b------(c|)", "10ms"),
    ("-a--(bc)-----------d-------|", "debounce 50ms", "---------c--------------d--|", "10ms"),
    ("--a--b--c--d--e--f--g--h-|", "debounce 40ms", "-------------------------(h|)", "10ms"),
    ("-----#", "debounce 10ms", "-----#", "10ms"),
    // The marble testing guide's time progression example: concatMap(d => of(d).pipe(delay(10))).
    (" -a-b-c|", "flatMap { from $0 | delay 10ms }", "-- 9ms a 9ms b 9ms (c|)", "1ms"),
  ]

  @Test(arguments: rxjsDiagrams)
  func rxjsExpectedDiagrams(_ source: String, _ operation: String, _ expected: String, _ tick: String) async throws {
    let actual = await Self.run(
      "draw (marble \"\(source)\" dialect: rxjs tick: \(tick)) | \(operation) tick: \(tick) dialect: rxjs")
    let wanted = await Self.run("draw (marble \"\(expected)\" dialect: rxjs tick: \(tick)) tick: \(tick) dialect: rxjs")
    let lane = try #require(try Self.lanes(actual.out).lanes.last?.lane)
    #expect(lane == (try Self.lanes(wanted.out).lanes.first?.lane), "\(actual.out)")
  }

  /// The tick the options give, and as they write it.
  static func tick(in options: String) -> (Duration, String)? {
    let words = options.split(separator: " ")
    guard let index = words.firstIndex(of: "tick:"), index + 1 < words.count else { return nil }
    let text = String(words[index + 1])
    if text.hasSuffix("ms"), let value = Int(text.dropLast(2)) { return (.milliseconds(value), text) }
    if text.hasSuffix("s"), let value = Int(text.dropLast()) { return (.seconds(value), text) }
    return nil
  }
}
