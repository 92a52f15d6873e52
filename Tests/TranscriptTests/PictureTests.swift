import Foundation
import Markup
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `draw … to: "F.svg"` and `to: "F.html"`: pictures that parse, say what `trace` says, escape
/// their text, and fail clearly where they cannot be written.
@Suite("pictures")
struct PictureTests {
  static let svgNamespace = "http://www.w3.org/2000/svg"

  /// A fresh directory for one test's files.
  static func directory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-pictures-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Draws `pipeline` to an SVG file and parses it.
  static func drawn(
    _ pipeline: String, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (
    XMLDocument, String, Pipesh.Result
  ) {
    let directory = try directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("picture.svg")
    let result = try Pipesh.run(["--virtual-time", "-c", "draw \(pipeline) to: \"\(file.path)\""])
    #expect(result.status == status, "draw to a file: \(result.stderr)", sourceLocation: sourceLocation)
    let text = try String(contentsOf: file, encoding: .utf8)
    return (try XMLDocument(xmlString: text, options: []), text, result)
  }

  /// How many marbles each lane of a picture has, in order.
  static func marblesPerLane(_ document: XMLDocument) throws -> [Int] {
    try document.nodes(forXPath: "//*[local-name()='g'][@class='lane']").map { lane in
      try lane.nodes(forXPath: "*[local-name()='g'][@class='marble']").count
    }
  }

  /// Each lane's elements are `trace`'s: the same values at the same times, node by node.
  @Test(arguments: [
    "merge(marble \"a-b-c|\", marble \"-d--e|\") | throttle 2",
    "marble \"ab-c--d|\" | debounce 1.5",
    "zip(timer 1, marble \"a--b-c|\")",
    "timer 0.3 | take 5 | map { $0 * 10 }",
    "from 1 2 3 | flatMapLatest { timer 1 | take $0 }",
  ])
  func lanesShowWhatTraceSays(_ pipeline: String) throws {
    let (document, _, written) = try Self.drawn(pipeline)
    #expect(written.stdout.hasPrefix("draw: wrote "))
    let root = try #require(document.rootElement())
    #expect(root.name == "svg")
    #expect(root.uri == Self.svgNamespace)

    var fromPicture: [String: [String]] = [:]
    for lane in try root.nodes(forXPath: "//*[local-name()='g'][@class='lane']") {
      guard let lane = lane as? XMLElement else { continue }
      let label =
        try lane.nodes(forXPath: "*[local-name()='text'][@class='label']/*[local-name()='title']").first?
        .stringValue ?? ""
      let marbles = try lane.nodes(forXPath: "*[local-name()='g'][@class='marble']/*[local-name()='title']")
      fromPicture[label, default: []] += marbles.compactMap(\.stringValue)
    }

    // trace: `+1.000s [1] LABEL  → VALUE`, the label padded to the longest one.
    let traced = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) | drain"])
    #expect(traced.status == 0, "\(traced.stderr)")
    var fromTrace: [String: [String]] = [:]
    for line in traced.stdout.split(separator: "\n") where line.contains("  → ") {
      let parts = line.components(separatedBy: "  → ")
      let head = parts[0].split(separator: " ", maxSplits: 2)
      guard head.count == 3 else { continue }
      let label = head[2].trimmingCharacters(in: .whitespaces)
      fromTrace[label, default: []].append("\(head[0]) \(parts[1])")
    }
    // The picture leaves out the implicit sink: compare the nodes it drew.
    #expect(!fromPicture.isEmpty)
    for (label, marbles) in fromPicture {
      #expect(marbles == fromTrace[label] ?? [], "lane \(label)")
    }
  }

  /// Values with markup characters, quotes and long texts are text in the picture, whole in the
  /// title and, where they fit, whole inside the marble.
  @Test func valuesAreEscapedText() throws {
    let (document, text, _) = try Self.drawn("from \"<b>&\" \"say \\\"hi\\\"\" \"a long value indeed\"")
    #expect(!text.contains("<b>&"))
    let titles = try document.nodes(forXPath: "//*[local-name()='g'][@class='marble']/*[local-name()='title']")
      .compactMap(\.stringValue)
    #expect(titles == ["+0.000s <b>&", "+0.000s say \"hi\"", "+0.000s a long value indeed"])
    #expect(try Self.insideMarbles(document) == ["<b>&", "say \"hi\"", "a long value indeed"])
  }

  /// The title's second line (its lines, wrapped to the picture, joined again).
  static func details(_ document: XMLDocument) throws -> String {
    try document.nodes(forXPath: "//*[local-name()='text'][@class='details']/*[local-name()='tspan']")
      .compactMap(\.stringValue).joined(separator: " ")
  }

  /// The texts inside the marbles, in order.
  static func insideMarbles(_ document: XMLDocument) throws -> [String] {
    try document.nodes(forXPath: "//*[local-name()='g'][@class='marble']/*[local-name()='text']")
      .compactMap(\.stringValue)
  }

  /// The debounced `swift` of the search-as-you-type lesson shows whole (it read `sw…` when
  /// values were cut to three characters); a value too long for its room is cut with `…` inside
  /// its marble and written whole under its lane.
  @Test func wholeValuesWhereTheyFit() throws {
    let (search, _, _) = try Self.drawn(
      "(marble \"s-w-i-----f-t-------|\" tick: 0.1) | reductions { $0 + $1 } | debounce 0.3")
    #expect(
      try Self.insideMarbles(search).filter { $0.hasPrefix("sw") } == ["sw", "swi", "swif", "swift", "swi", "swift"])
    #expect(!(try Self.insideMarbles(search).contains { $0.contains("…") }))

    let long = String(repeating: "x", count: 60)
    let (document, _, _) = try Self.drawn("marble \"ab|\" | map { $0 + \"\(long)\" }")
    let inside = try Self.insideMarbles(document)
    #expect(inside.filter { $0.hasSuffix("…") && $0.count < 40 }.count == 2, "\(inside)")
    let listed = try document.nodes(forXPath: "//*[local-name()='text'][@class='values']").compactMap(\.stringValue)
    // Wrapped to the picture's width.
    let joined = listed.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    #expect(joined == "in full: +1.000s a\(long) · +2.000s b\(long)")
  }

  /// The title: the command as typed, its job number, its clock and tick, where the axis starts.
  @Test func everyPictureHasATitle() throws {
    func heading(_ svg: String) throws -> (command: String, details: String) {
      let document = try XMLDocument(xmlString: svg, options: [])
      let title = "//*[local-name()='g'][@class='title']/*[local-name()='text']"
      let texts = try document.nodes(forXPath: title).compactMap(\.stringValue)
      try #require(texts.count == 2)
      return (texts[0], try Self.details(document))
    }
    let (_, drawn, _) = try Self.drawn("timer 1 | take 2")
    #expect(try heading(drawn).command == "draw timer 1 | take 2")
    #expect(try heading(drawn).details.hasPrefix("job 1 · on a virtual clock of its own, from 0 at the job's start"))
    #expect(try heading(drawn).details.hasSuffix("a column of the text is 1s"))

    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let traced = directory.appendingPathComponent("trace.svg")
    let compared = directory.appendingPathComponent("compare.svg")
    let result = try Pipesh.run([
      "--virtual-time", "-c",
      "from 1 | drain\ntrace timer 1 | take 2 to: \"\(traced.path)\"\ncompare from 1 2 | take 1 to: \"\(compared.path)\"",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let trace = try heading(try String(contentsOf: traced, encoding: .utf8))
    #expect(trace.command == "trace timer 1 | take 2")
    #expect(trace.details.hasPrefix("job 2 · the session's virtual clock · times from the job's start"))
    let compare = try heading(try String(contentsOf: compared, encoding: .utf8))
    #expect(compare.command == "compare from 1 2 | take 1")
    #expect(compare.details.contains("job 3 · "))
    #expect(compare.details.contains("OpenCombine 0.14.0"))
  }

  /// The legend lists the marks the picture uses, and only those (a cancellation with its reasons).
  @Test func aLegendListsExactlyTheMarksUsed() throws {
    func legend(_ document: XMLDocument) throws -> [String] {
      try document.nodes(forXPath: "//*[local-name()='g'][@class='legend']/*[local-name()='g']/*[local-name()='text']")
        .compactMap(\.stringValue)
    }
    let (plain, _, _) = try Self.drawn("from 1 2")
    #expect(
      try legend(plain) == [
        "element, its value inside (hover for its time and whole value)", "finished",
        "lifetime: from its first request to its end (dashed: cancelled; red: failed)",
      ])
    let (failing, _, _) = try Self.drawn("zip(timer 1, marble \"a-b|\") | map { 10 / ($0.0 - 1) }", status: 1)
    #expect(
      try legend(failing) == [
        "element, its value inside (hover for its time and whole value)", "failed (its error beside it)",
        "cancelled: downstream cancelled; downstream failed",
        "lifetime: from its first request to its end (dashed: cancelled; red: failed)",
      ])
    let (demand, _, _) = try Self.drawn("from 1 2 | buffer 1 demand: true")
    #expect(try legend(demand).contains("asked: its consumer's next() outstanding"))
    #expect(!(try legend(demand).contains("dropped by the buffer's policy")))
  }

  /// `draw`, `trace` and `compare` draw an end the same way: the same shape for finished, failed
  /// and cancelled (only where it stands differs).
  @Test func endsAreDrawnAlikeInEveryPicture() throws {
    let pipeline = "zip(timer 1, marble \"a-b|\") | map { 10 / ($0.0 - 1) }"
    let (drawn, _, _) = try Self.drawn(pipeline, status: 1)
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("chart.svg")
    _ = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) to: \"\(file.path)\""])
    let traced = try XMLDocument(xmlString: try String(contentsOf: file, encoding: .utf8), options: [])
    let compareFile = directory.appendingPathComponent("compare.svg")
    _ = try Pipesh.run(["--virtual-time", "-c", "compare marble \"ab|\" | take 1 to: \"\(compareFile.path)\""])
    let compared = try XMLDocument(xmlString: try String(contentsOf: compareFile, encoding: .utf8), options: [])
    /// The shapes of every `kind` end mark, coordinates left out.
    func shapes(_ document: XMLDocument, _ kind: String) throws -> Set<String> {
      Set(
        try document.nodes(forXPath: "//*[local-name()='g'][@class='\(kind)']").compactMap { mark in
          (mark as? XMLElement)?.children?.filter { $0.name != "title" }.map {
            $0.xmlString.replacingOccurrences(of: "\"-?[0-9]+\"", with: "N", options: .regularExpression)
          }.joined()
        })
    }
    for kind in ["failed", "cancelled"] {
      let inDraw = try shapes(drawn, kind)
      #expect(inDraw.count == 1, "\(kind): \(inDraw)")
      #expect(try shapes(traced, kind) == inDraw, "\(kind)")
    }
    let (finishing, _, _) = try Self.drawn("from 1 2")
    #expect(try shapes(finishing, "finished").count == 1)
    #expect(try shapes(compared, "finished") == (try shapes(finishing, "finished")))
  }

  /// A later job's chart starts at its own start: the third job of a session on the virtual clock,
  /// started at +3s, is drawn from 0, its elements at 1s and 2s, and its title says where it began
  /// on the session's clock (trace's lines keep the session's times).
  @Test func aLaterJobsAxisStartsAtItsStart() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("later.svg")
    let result = try Pipesh.run([
      "--virtual-time", "-c",
      "timer 1 | take 2 | drain\nfrom 1 | delay 1 | drain\ntrace timer 1 | take 2 to: \"\(file.path)\"",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try XMLDocument(xmlString: try String(contentsOf: file, encoding: .utf8), options: [])
    let ticks = try document.nodes(forXPath: "//*[local-name()='g'][@class='element']/*[local-name()='title']")
      .compactMap(\.stringValue)
    #expect(
      ticks.count >= 4
        && Set(ticks) == [
          "+1.000s 0 (+4.000s on the session's clock)", "+2.000s 1 (+5.000s on the session's clock)",
        ], "\(ticks)")
    let ruler = try document.nodes(forXPath: "//*[local-name()='g'][@class='ruler']/*[local-name()='text']")
      .compactMap(\.stringValue)
    #expect(ruler.first == "0s")
    #expect(ruler.last == "2s")
    #expect(try Self.details(document).contains("which was +3.000s on the session's clock"))
  }

  /// The end of every node, with its reason, and its lifetime; the job failed (status 1).
  @Test func endsAndLifetimesAreDrawn() throws {
    let (document, _, _) = try Self.drawn("zip(timer 1, marble \"a-b|\") | map { 10 / ($0.0 - 1) }", status: 1)
    func titles(_ kind: String) throws -> [String] {
      try document.nodes(forXPath: "//*[local-name()='g'][@class='\(kind)']/*[local-name()='title']")
        .compactMap(\.stringValue)
    }
    #expect(
      try titles("cancelled") == [
        "+3.000s cancelled (downstream cancelled)", "+3.000s cancelled (downstream cancelled)",
        "+3.000s cancelled (downstream failed)",
      ])
    #expect(try titles("failed").contains { $0.contains("division by zero") })
    #expect(try titles("lifetime").count == 4)
  }

  /// A page: the picture inline, the text diagram beside it, nothing from the network.
  @Test func aPageHoldsThePictureAndTheText() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("page.html")
    let result = try Pipesh.run([
      "--virtual-time", "-c", "draw marble \"a-b|\" | map { $0 + \"!\" } to: \"\(file.path)\"",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let page = try String(contentsOf: file, encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("<svg xmlns=\"\(Self.svgNamespace)\""))
    #expect(page.contains("<pre>"))
    #expect(page.contains("&apos;a!&apos; -&apos;b!&apos; |"))
    #expect(!page.replacingOccurrences(of: Self.svgNamespace, with: "").contains("http"))
  }

  /// A file that cannot be written is an error with status 1, and the script goes on. A full
  /// device is reached through a name ending in `.svg` (`to:` takes only the endings it writes).
  @Test(arguments: ["/nonexistent/x.svg", "/dev/full"])
  func anUnwritablePathIsAnError(_ device: String) throws {
    var path = device
    if device == "/dev/full" {
      path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-full-\(UUID()).svg").path
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: device)
    }
    defer { if path != device { try? FileManager.default.removeItem(atPath: path) } }
    let result = try Pipesh.run(["--virtual-time", "-c", "draw from 1 to: \"\(path)\"\nfrom \"after\""])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: draw: cannot write '\(path)': "))
    #expect(result.stdout == "after\n")
  }

  /// The pictures README.md and Docs/exploring.md show (`Docs/pictures/NAME.svg`) are what their scripts
  /// (`Docs/pictures/NAME.pipe`) draw now, byte for byte, in this build; `Scripts/pictures`
  /// draws them again.
  @Test func committedPicturesAreUpToDate() throws {
    let pictures = ExportTests.root.appendingPathComponent("Docs/pictures")
    let scripts = try FileManager.default.contentsOfDirectory(atPath: pictures.path).filter { $0.hasSuffix(".pipe") }
    #expect(scripts.count >= 7)
    for script in scripts.sorted() {
      let directory = try Self.directory()
      defer { try? FileManager.default.removeItem(at: directory) }
      try FileManager.default.copyItem(
        at: pictures.appendingPathComponent(script), to: directory.appendingPathComponent(script))
      let result = try Pipesh.run(["--virtual-time", script], directory: directory)
      // A script may draw a job that fails (status 1); it must check and write its picture.
      #expect(result.status == 0 || result.status == 1, "\(script): \(result.stderr)")
      let name = String(script.dropLast(".pipe".count)) + ".svg"
      let drawn = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      let committed = try String(contentsOf: pictures.appendingPathComponent(name), encoding: .utf8)
      #expect(drawn == committed, "Docs/pictures/\(name) is not what \(script) draws: run Scripts/pictures")
    }
  }

  /// `trace … to:`: a row per node with how it ended and a tick per element, as `trace` prints them.
  @Test(arguments: [
    "zip(timer 1, marble \"a-b|\") | map { 10 / ($0.0 - 1) }",
    "from 1 2 3 | flatMapLatest { timer 1 | take $0 }",
    "merge(marble \"a-b|\", timer 1 | take 2 | map { \"t\" })",
  ])
  func traceChartsSayWhatTraceSays(_ pipeline: String) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("chart.svg")
    let charted = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline) to: \"\(file.path)\""])
    #expect(charted.stderr.isEmpty || charted.status == 1, "\(charted.stderr)")
    #expect(charted.stdout.contains("trace: wrote "))
    let document = try XMLDocument(xmlString: try String(contentsOf: file, encoding: .utf8), options: [])
    #expect(document.rootElement()?.uri == Self.svgNamespace)

    var fromChart: [String: (ends: [String], elements: Int)] = [:]
    for row in try document.nodes(forXPath: "//*[local-name()='g'][@class='node']") {
      let label =
        try row.nodes(forXPath: "*[local-name()='text'][@class='label']/*[local-name()='title']").first?
        .stringValue ?? ""
      let reason = try row.nodes(forXPath: "*[local-name()='text'][@class='reason']").first?.stringValue ?? ""
      let elements = try row.nodes(forXPath: "*[local-name()='g'][@class='element']").count
      fromChart[label, default: ([], 0)].ends.append(reason)
      fromChart[label, default: ([], 0)].elements += elements
    }

    // Wide enough that trace does not shorten a label.
    let traced = try Pipesh.run(["--virtual-time", "-c", "trace \(pipeline)"], environment: ["COLUMNS": "300"])
    var fromTrace: [String: (ends: [String], elements: Int)] = [:]
    for line in traced.stdout.split(separator: "\n") where line.hasPrefix("+") {
      let head = line.split(separator: " ", maxSplits: 2)
      guard head.count == 3, let gap = head[2].range(of: "  ") else { continue }
      let label = head[2][..<gap.lowerBound].trimmingCharacters(in: .whitespaces)
      let what = head[2][gap.upperBound...].trimmingCharacters(in: .whitespaces)
      // Task events are not the nodes' lifetimes the chart draws.
      if what.hasPrefix("task ") { continue }
      if what.hasPrefix("→ ") {
        fromTrace[label, default: ([], 0)].elements += 1
      } else if what != "start" {
        fromTrace[label, default: ([], 0)].ends.append(what)
      }
    }
    #expect(!fromChart.isEmpty)
    #expect(Set(fromChart.keys) == Set(fromTrace.keys))
    for (label, chart) in fromChart {
      #expect(chart.ends.sorted() == (fromTrace[label]?.ends ?? []).sorted(), "row \(label)")
      #expect(chart.elements == fromTrace[label]?.elements, "row \(label)")
    }
  }

  /// `trace … to: "F.html"`: the chart, and under it trace's timed lines as the terminal prints them.
  @Test func aTracePageKeepsTheTimedLines() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("trace.html")
    let result = try Pipesh.run(["--virtual-time", "-c", "trace marble \"a-b|\" | take 1 to: \"\(file.path)\""])
    #expect(result.status == 0, "\(result.stderr)")
    let page = try String(contentsOf: file, encoding: .utf8)
    let traced = try Pipesh.run(["--virtual-time", "-c", "trace marble \"a-b|\" | take 1"])
    let lines = traced.stdout.split(separator: "\n").filter { $0.hasPrefix("+") }
    #expect(lines.count >= 6)
    let text = try #require(page.components(separatedBy: "<pre>").dropFirst().first)
    #expect(text.hasPrefix(lines.map { Markup.escaped(String($0), .picture) }.joined(separator: "\n") + "</pre>"))
  }

  /// `compare … to:`: each stage's AA lane over its Combine lane, on one axis, a differing pair on a
  /// tinted band; the times are those `Examples/combine-throttle.pipe` explains.
  @Test func aComparisonPutsTheTwoSidesOnOneAxis() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("compare.svg")
    let result = try Pipesh.run(["-c", "compare marble \"a-b-c--d|\" | throttle 3 to: \"\(file.path)\""])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try XMLDocument(xmlString: try String(contentsOf: file, encoding: .utf8), options: [])
    var lanes: [(side: String, marbles: [String])] = []
    for lane in try document.nodes(forXPath: "//*[local-name()='g'][@class='lane']") {
      let side =
        try lane.nodes(forXPath: "*[local-name()='text'][@class='side']/*[local-name()='title']").first?
        .stringValue ?? ""
      let marbles = try lane.nodes(forXPath: "*[local-name()='g'][@class='marble']/*[local-name()='title']")
        .compactMap(\.stringValue)
      lanes.append((side, marbles))
    }
    #expect(
      lanes.map(\.side) == [
        "AsyncAlgorithms", "Combine: PassthroughSubject + sends scheduled per step", "AsyncAlgorithms",
        "Combine: throttle(for:scheduler:latest:)",
      ])
    try #require(lanes.count == 4)
    #expect(lanes[2].marbles == ["+1.000s a", "+5.000s c", "+8.000s d"])
    #expect(lanes[3].marbles == ["+1.000s a", "+4.000s b", "+7.000s c", "+10.000s d"])
    // The throttle pair differs: both its lanes are on the band; the source pair is not.
    #expect(try document.nodes(forXPath: "//*[local-name()='rect'][@class='differs']").count == 2)
  }

  static let reportScript = """
    from "hello <world>" | print
    draw marble "ab-c---d|" | debounce 1.5
    from "between" | print
    compare marble "a-b-c--d|" | throttle 3
    trace zip(timer 1, marble "a-b|") | map { 10 / ($0.0 - 1) }
    from "after" | print

    """

  /// `pipesh --html FILE`: one page of the run, its output and its pictures in the order they came.
  @Test func anHTMLReportHoldsTheRunInOrder() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.reportScript.write(to: directory.appendingPathComponent("report.pipe"), atomically: true, encoding: .utf8)
    let result = try Pipesh.run(["--virtual-time", "--html", "report.pipe"], directory: directory)
    // The traced job fails: status 1, as without --html; its error is in the page, in red.
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    let page = result.stdout
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.components(separatedBy: "<svg xmlns=").count == 4)
    let order = [
      "hello &lt;world&gt;", "<h2>draw marble", "between", "<h2>compare marble",
      "<span class=\"error\">error: [5] map { 10 / ($0.0 - 1) }: division by zero</span>", "<h2>trace zip", "after",
    ]
    let places = order.map { page.range(of: $0)?.lowerBound }
    #expect(places.allSatisfy { $0 != nil }, "\(zip(order, places).filter { $0.1 == nil }.map(\.0))")
    let found = places.compactMap { $0 }
    #expect(found == found.sorted())
    // The traced job's timed lines are under its chart, as the terminal prints them.
    let traced = try Pipesh.run([
      "--virtual-time", "-c", "trace zip(timer 1, marble \"a-b|\") | map { 10 / ($0.0 - 1) }",
    ])
    // Task numbers count the session's tasks: the same lines but for them.
    let lines = traced.stdout.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.contains("  task ") }
    #expect(lines.count > 10)
    let section = try #require(page.components(separatedBy: "<h2>trace zip").dropFirst().first)
    let text = try #require(section.components(separatedBy: "<pre class=\"text\">").dropFirst().first)
    for line in lines {
      let job = line.replacingOccurrences(of: "[1]", with: "[5]")
      #expect(text.contains(Markup.escaped(job, .picture)), "\(job)")
    }
    // What the traced job printed stands among those lines, after its print's event, as in the
    // terminal; not in the page's output above the chart.
    let printed = try #require(lines.first { $0.contains("print") && $0.hasSuffix("→ -10") })
    #expect(text.contains(Markup.escaped(printed.replacingOccurrences(of: "[1]", with: "[5]"), .picture) + "\n-10\n"))
    #expect(!page.components(separatedBy: "<h2>trace zip")[0].contains("\n-10\n"))
  }

  @Test func anHTMLReportNeedsAScript() throws {
    let result = try Pipesh.run(["--html"], stdin: "")
    #expect(result.status == 2)
    #expect(result.stderr.contains("--html runs FILE or -c TEXT"))
  }

  /// The pipelines a `flatMapLatest` built are lanes under it, indented.
  @Test func aFlatMapsPipelinesAreNestedUnderIt() throws {
    let (document, _, _) = try Self.drawn("from 1 2 | flatMapLatest { timer 1 | take $0 }")
    let labels = try document.nodes(
      forXPath: "//*[local-name()='g'][@class='lane']/*[local-name()='text'][@class='label']"
    )
    .compactMap { $0 as? XMLElement }
    let placed = try labels.map { label in
      (
        try label.nodes(forXPath: "*[local-name()='title']").first?.stringValue ?? "",
        try label.nodes(forXPath: "@x").first?.stringValue ?? ""
      )
    }
    #expect(
      placed.map(\.0) == [
        "from 1 2", "flatMapLatest { timer 1 | take $0 }", "timer 1 ($0 = 1)", "take $0 ($0 = 1)", "timer 1 ($0 = 2)",
        "take $0 ($0 = 2)",
      ])
    #expect(placed.map(\.1) == ["20", "20", "34", "34", "34", "34"])
  }

  /// A node that never started (`take 0` never asks its input) gets no lifetime bar, and says so,
  /// as `trace` shows no start for it.
  @Test func aNodeThatNeverStartedSaysSo() throws {
    let (document, _, _) = try Self.drawn("from 1 2 | take 0")
    let lifetimes = try document.nodes(forXPath: "//*[local-name()='g'][@class='lifetime']/*[local-name()='title']")
      .compactMap(\.stringValue)
    #expect(lifetimes == ["+0.000s: never started; cancelled (downstream finished)", "+0.000s to +0.000s: finished"])
    let traced = try Pipesh.run(["--virtual-time", "-c", "trace from 1 2 | take 0"])
    #expect(!traced.stdout.contains("from 1 2  start"))
    #expect(traced.stdout.contains("take 0    start"))
  }
}
