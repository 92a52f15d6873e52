import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `pipesh --page`, what `pipesh serve`'s page shows of a script: the annotations of its editable
/// `marble "…"` lanes say where each literal's text is in the script, and its marks' ticks and
/// values, so that the page writes an edited lane back as text that reads as the lane it shows.
@Suite("pipesh --page")
struct PageTests {
  /// Characters outside ASCII before the literals: offsets are UTF-16 code units (JavaScript's).
  static let script = """
    # café ☕ 👍🏽: what stands before a literal counts in UTF-16 code units
    merge(marble "a-'hello'--[bc]|", marble "-x--^" tick: 500ms)
    marble "12-3" | take 1
    marble "--a--b--|" dialect: rxjs
    from 1 2 | flatMap { marble "z|" }

    """

  /// The literals the page may edit: those in swift-async-algorithms' notation, not a flatMap's.
  static let editable = ["a-'hello'--[bc]|", "-x--^", "12-3"]

  static func run(_ script: String) throws -> (XMLDocument, Pipesh.Result) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-page-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try script.write(to: directory.appendingPathComponent("script.pipe"), atomically: true, encoding: .utf8)
    let result = try Pipesh.run(["--virtual-time", "--page", "script.pipe"], directory: directory)
    let document = try XMLDocument(xmlString: "<root>" + result.stdout + "</root>", options: [])
    return (document, result)
  }

  static func attribute(_ node: XMLNode, _ name: String) -> String? {
    // By its name among the attributes: inside the SVG's namespace, attribute(forName:) finds none.
    (node as? XMLElement)?.attributes?.first { $0.name == name }?.stringValue
  }

  /// A lane written back as the page writes it: one character a tick, `-` empty, a one-character
  /// value as itself, a longer one quoted, several at a tick in `[…]`, then the end.
  static func written(marks: [(tick: Int, value: String)], end: (tick: Int, kind: String)) -> String {
    let ticks = Dictionary(grouping: marks, by: \.tick)
    let last = max(end.tick, marks.map(\.tick).max() ?? -1)
    var text = ""
    for tick in 0...max(0, last) where tick <= last {
      if end.kind != "none", tick == end.tick, ticks[tick] == nil {
        text += end.kind == "failed" ? "^" : "|"
        break
      }
      let values = (ticks[tick] ?? []).map { $0.value.count == 1 ? $0.value : "'\($0.value)'" }
      text += values.isEmpty ? "-" : values.count == 1 ? values[0] : "[" + values.joined() + "]"
    }
    return text
  }

  @Test func everyEditableLaneIsAnnotatedAndWritesBackAsItsText() throws {
    let (document, result) = try Self.run(Self.script)
    // merge fails with its second input: the script's status is 1, its error in the fragment.
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    let utf16 = Array(Self.script.utf16)
    let lanes = try document.nodes(forXPath: "//*[local-name()='g'][@class='marble-input']")
    var found: [String] = []
    for lane in lanes {
      let source = try #require(Self.attribute(lane, "data-source")).split(separator: ":").compactMap { Int($0) }
      try #require(source.count == 2 && source[0] <= source[1] && source[1] <= utf16.count)
      let text = String(utf16CodeUnits: Array(utf16[source[0]..<source[1]]), count: source[1] - source[0])
      found.append(text)
      let x0 = try #require(Self.attribute(lane, "data-x0").flatMap(Int.init))
      let width = try #require(Self.attribute(lane, "data-tick-width").flatMap(Double.init))
      #expect(try #require(Self.attribute(lane, "data-ticks").flatMap(Int.init)) > 0)
      var marks: [(tick: Int, value: String)] = []
      for marble in try lane.nodes(forXPath: "*[local-name()='g'][@class='marble']") {
        let tick = try #require(Self.attribute(marble, "data-tick").flatMap(Int.init))
        marks.append((tick, try #require(Self.attribute(marble, "data-value"))))
        // Each mark stands where its tick is: x0 plus its ticks' widths.
        let rect = try #require(try marble.nodes(forXPath: "*[local-name()='rect']").first)
        let left = try #require(Self.attribute(rect, "x").flatMap(Int.init))
        let wide = try #require(Self.attribute(rect, "width").flatMap(Int.init))
        #expect(abs(Double(left + wide / 2) - (Double(x0) + Double(tick) * width)) <= 1, "\(text) at tick \(tick)")
      }
      let ends = try lane.nodes(forXPath: "*[local-name()='g'][@class='marble-end']")
      try #require(ends.count == 1, "\(text): one end mark")
      let end = (
        try #require(Self.attribute(ends[0], "data-tick").flatMap(Int.init)),
        try #require(Self.attribute(ends[0], "data-kind"))
      )
      #expect(Self.written(marks: marks, end: end) == text, "\(text) written back")
    }
    #expect(found == Self.editable)
  }

  /// An edit as the page makes it: a mark moved, the lane written back between data-source's
  /// UTF-16 offsets, and the script run again draws the moved value at its new tick, and the
  /// lanes below follow.
  @Test func aLaneWrittenBackAtItsSourceRedrawsTheEdit() throws {
    let script = "# ☕ 👍🏽\nmarble \"a-b|\" | map { $0 + \"!\" }\n"
    let (before, _) = try Self.run(script)
    let lane = try #require(try before.nodes(forXPath: "//*[local-name()='g'][@class='marble-input']").first)
    let source = try #require(Self.attribute(lane, "data-source")).split(separator: ":").compactMap { Int($0) }
    try #require(source.count == 2)
    // b moves from tick 2 to tick 4; the end after it.
    let edited = Self.written(marks: [(0, "a"), (4, "b")], end: (5, "finished"))
    var units = Array(script.utf16)
    units.replaceSubrange(source[0]..<source[1], with: Array(edited.utf16))
    let after = String(utf16CodeUnits: units, count: units.count)
    #expect(after == "# ☕ 👍🏽\nmarble \"a---b|\" | map { $0 + \"!\" }\n")
    let (redrawn, result) = try Self.run(after)
    #expect(result.stdout.hasPrefix("<pre class=\"output\">a!\nb!</pre>"))
    let ticks = try redrawn.nodes(forXPath: "//*[local-name()='g'][@class='marble-input']/*[@class='marble']")
    #expect(ticks.map { Self.attribute($0, "data-tick") } == ["0", "4"])
    // map's lane: its b! at the time of tick 4 (5 s).
    #expect(result.stdout.contains("<title>+5.000s b!</title>"))
  }

  /// A marble's ticks count from the job's start, where AA makes its iterator: chain's second input
  /// too, whose values come later than their ticks when chain asks for them after the first ends.
  @Test func chainsSecondInputCountsItsTicksFromTheStart() throws {
    let (document, _) = try Self.run("chain(marble \"ab|\", marble \"-c|\")\n")
    let lanes = try document.nodes(forXPath: "//*[local-name()='g'][@class='marble-input']")
    #expect(lanes.count == 2)
    #expect(Set(lanes.map { Self.attribute($0, "data-x0") }).count == 1)
    let second = try lanes.last.map { try $0.nodes(forXPath: "*[local-name()='g'][@class='marble']") } ?? []
    #expect(second.map { Self.attribute($0, "data-tick") } == ["1"])
  }

  /// What the run did not reach is still there to edit: `take 1` cancels the marble after `1`.
  @Test func valuesTheRunDidNotReachAreAnnotatedFaint() throws {
    let (document, _) = try Self.run("marble \"ab-c|\" | take 1\n")
    let marbles = try document.nodes(forXPath: "//*[local-name()='g'][@class='marble-input']/*[@class='marble']")
    #expect(marbles.map { Self.attribute($0, "data-value") } == ["a", "b", "c"])
    #expect(marbles.map { Self.attribute($0, "data-emitted") } == [nil, "false", "false"])
    let end = try document.nodes(forXPath: "//*[local-name()='g'][@class='marble-end']")
    #expect(end.map { Self.attribute($0, "data-tick") } == ["4"])
  }

  /// A pipeline that floods its horizon (a 1 ms timer drawn on draw's 1 s ticks: 60,000 elements
  /// a node) is drawn up to the page's 10,000 events and says so, well inside the server's 4 MB;
  /// with a terminal's 100,000 it printed 22 MB and took longer than the server's 10 s.
  @Test func aFloodingPipelineIsDrawnUpToThePagesEventLimit() throws {
    let (_, result) = try Self.run("timer 1ms | map { $0 } | filter { $0 < 0 }\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains("stopped the pipeline after 10000 events"))
    #expect(result.stdout.utf8.count < 4 << 20)
  }

  /// Under each pipeline's picture, its task tree as `tasks N` prints it: the tasks its operators
  /// started (merge's task and its two group children), who cancelled them and when they ended.
  @Test func eachPipelineShowsTheTasksItsOperatorsStarted() throws {
    let (document, result) = try Self.run("merge(timer 1, timer 2) | take 3\n")
    #expect(result.status == 0)
    let outputs = try document.nodes(forXPath: "//pre[@class='output']").compactMap(\.stringValue)
    let tree = try #require(outputs.first { $0.hasPrefix("[1] finished: merge(timer 1, timer 2) | take 3") })
    #expect(tree.contains("tasks: 0 running, 4 ended"))
    #expect(tree.contains("└ 2    unstructured, by 1"))
    #expect(tree.contains("  ├ 3  group child of 2"))
    #expect(tree.contains("  └ 4  group child of 2"))
  }
}

/// A shared link's script reads no file, wherever the read stands: generated nestings of every
/// place a pipeline can hold another (flatMap, flatMapLatest and spawn bodies, combinators' inputs,
/// groups, `let` fragments, a channel's consumer, draw, trace and expect) around `lines` and
/// `stdin` are each refused where they are written, before anything runs; the refusal reads the
/// same whether the file exists or not, and nothing of the file reaches the page.
@Suite("pipesh --page sandbox")
struct PageSandboxTests {
  /// Ways one source pipeline can be held inside another (`X` stands for it).
  static let wrappers = [
    "(X)", "merge(from \"a\", X)", "zip(from 1, X) | map { $0.1 }", "chain(from \"a\", X)",
    "combineLatest(X, from 1) | map { $0.0 }", "from 1 | flatMap { X }", "from 1 | flatMapLatest { X }",
    "from \"a\" | spawn { X }",
    "from 1 | flatMap { X } concurrency: 2", "from \"a\" | flatMap { X | take 1 }",
  ]

  /// A script of generated statements, each with one file read somewhere inside it.
  static func script(reading path: String) -> [String] {
    let sources = ["lines \"\(path)\"", "stdin", "from \"\(path)\" | flatMap { lines $0 }"]
    var pipelines = sources
    for wrapper in wrappers {
      for source in sources { pipelines.append(wrapper.replacingOccurrences(of: "X", with: source)) }
    }
    // Two levels: each wrapper around each wrapper of the first source.
    for outer in wrappers {
      for inner in wrappers {
        let inside = inner.replacingOccurrences(of: "X", with: sources[0])
        // An operator form nested in a combinator's input or group stands whole in it.
        pipelines.append(outer.replacingOccurrences(of: "X", with: inside))
      }
    }
    var statements: [String] = []
    for (index, pipeline) in pipelines.enumerated() {
      switch index % 5 {
      case 0: statements.append(pipeline)
      case 1: statements.append("\(pipeline) | drain &")
      case 2: statements.append("draw \(pipeline)")
      case 3: statements.append("trace \(pipeline) | take 1")
      default: statements.append("expect \(pipeline) | take 1 prints \"a\"")
      }
    }
    // A `let` that wraps a read, used later; a channel whose consumer reads.
    statements.append("let f\(statements.count) = flatMap { lines \"\(path)\" }")
    statements.append("from 1 | f\(statements.count - 1)")
    statements.append("channel c of: Int | flatMap { lines \"\(path)\" } &")
    statements.append("from 1 | into c")
    // The commands that read a saved trace's file.
    for command in ["draw", "replay", "tasks"] { statements.append("\(command) \"\(path)\"") }
    statements.append("why \"\(path)\" keys debounced")
    return statements
  }

  @Test func everyNestedFileReadIsRefusedAndSaysNothingOfTheFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-sandbox-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let secret = directory.appendingPathComponent("secret.txt")
    let statements = Self.script(reading: secret.path)
    try (statements.joined(separator: "\n") + "\n").write(
      to: directory.appendingPathComponent("script.pipe"), atomically: true, encoding: .utf8)
    var outputs: [String] = []
    // The same script, with the file there and then without it.
    for exists in [true, false] {
      if exists {
        try "the-secret-line\n".write(to: secret, atomically: true, encoding: .utf8)
      } else {
        try FileManager.default.removeItem(at: secret)
      }
      let result = try Pipesh.run(["--virtual-time", "--page", "script.pipe"], directory: directory)
      #expect(result.status == 2)
      #expect(!result.stdout.contains("the-secret-line"))
      #expect(!result.stdout.contains("error: cannot"))
      #expect(!result.stdout.contains("<svg"), "nothing runs: no picture")
      // Every statement that reads is refused at its own line (a let's stage where the let writes
      // it, once; the channel's sender reads nothing).
      let refused = Set(
        result.stdout.split(separator: "\n").compactMap { line -> Int? in
          guard line.contains("error: the page runs no file access") else { return nil }
          let fields = line.split(separator: ":")
          return fields.count > 1 ? Int(fields[1]) : nil
        })
      for (index, statement) in statements.enumerated()
      where !statement.hasPrefix("from 1 | f") && !statement.hasPrefix("from 1 | into") {
        #expect(refused.contains(index + 1), "not refused: \(statement)")
      }
      outputs.append(result.stdout)
    }
    // A refusal never tells whether the file exists.
    let (first, second) = (outputs[0].split(separator: "\n"), outputs[1].split(separator: "\n"))
    let parting = zip(first, second).first { $0 != $1 }
    #expect(first.count == second.count && parting == nil, "\(parting.map { "\($0)\n\($1)" } ?? "")")
  }
}

/// A page's run stays within its memory bound: `pipesh --page` stops a script that keeps
/// a billion elements (it grew to 4.5 GB) and says why, whoever runs it.
@Suite("pipesh --page memory")
struct PageMemoryTests {
  @Test func aRunThatKeepsEveryElementIsStoppedAtTheBoundWithAMessage() throws {
    let (document, result) = try PageTests.run("range 1 1000000000 | collect &\nwait\nfrom \"after\"\n")
    #expect(result.status == 1)
    let text = try document.nodes(forXPath: "//pre[@class='output']").compactMap(\.stringValue).joined()
    #expect(text.contains("error: the page's run was stopped: it used more than 512 MB of memory"))
    // Stopped: the statement after the wait does not run, nor is the partial array printed.
    #expect(!text.contains("after"))
    #expect(!text.contains("[1, 2, 3"))
    // No child of this test process (they run side by side) went far past the hard bound of 1 GB
    // (the page looks at its memory every 10 ms: a quarter more for what grows in between).
    var usage = rusage()
    #expect(getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0)
    #expect(Int(usage.ru_maxrss) < 5 << 18)
  }
}
