import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Pictures opened in a real browser (Debian's `chromium-headless-shell`, which `Scripts/setup
/// --test` installs): what a person would see, read back through the rendered DOM. Each picture is
/// put in a page with a small script that measures it after layout; the browser prints the DOM.
@Suite(
  "pictures in a real browser", .serialized,
  .disabled(if: FinishingTests.underThreadSanitizer, "the browser, not pipesh, would run under ThreadSanitizer"))
struct BrowserTests {
  static let browser = "/usr/bin/chromium-headless-shell"

  /// What the page's script measured.
  struct Measured: Decodable {
    /// Marbles per lane, as rendered.
    let lanes: [Int]
    /// Rows of a lifetime chart.
    let nodes: Int
    /// Rendered elements whose right edge lies beyond the picture's.
    let beyond: Int
    let width: Double
    let height: Double
    /// The rendered title's command, and the legend's items.
    let title: String
    let legend: Int
    /// Where the axis's 0 and the leftmost lifetime bar start, in pixels.
    let axisStart: Double
    let barStart: Double?
  }

  /// Runs the browser on `page`: the DOM after layout, and what it logged.
  static func open(_ page: URL, screenshot: URL? = nil) throws -> (dom: String, log: String) {
    #expect(FileManager.default.isExecutableFile(atPath: browser), "\(browser) is missing: run Scripts/setup --test")
    var arguments = [
      "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr", "--window-size=1400,900",
    ]
    arguments.append(screenshot.map { "--screenshot=\($0.path)" } ?? "--dump-dom")
    let run = try Command.run(browser, arguments + [page.absoluteString], limit: 120)
    #expect(run.status == 0, "\(browser): \(run.stderr)")
    return (run.stdout, run.stderr)
  }

  static let measuring = """
    <pre id="measured"></pre>
    <script>
    const svg = document.querySelector('svg');
    const box = svg.getBoundingClientRect();
    let beyond = 0;
    for (const element of svg.querySelectorAll('circle, rect:not([width="100%"]), text, line')) {
      if (element.getBoundingClientRect().right > box.right + 0.5) beyond++;
    }
    const lanes = [...svg.querySelectorAll('g.lane')].map(lane => lane.querySelectorAll('g.marble').length);
    const nodes = svg.querySelectorAll('g.node').length;
    const title = svg.querySelector('g.title text.command')?.textContent ?? '';
    const legend = svg.querySelectorAll('g.legend g.item').length;
    const axisStart = svg.querySelector('g.ruler line').getBoundingClientRect().left;
    const bars = [...svg.querySelectorAll('g.bar line')].map(bar => bar.getBoundingClientRect().left);
    const barStart = bars.length ? Math.min(...bars) : null;
    document.getElementById('measured').textContent =
      JSON.stringify({ lanes, nodes, beyond, width: box.width, height: box.height, title, legend, axisStart, barStart });
    </script>
    """

  /// Opens `html` with the measuring script added at the end of its body.
  static func measure(_ html: String, in directory: URL) throws -> (Measured, String) {
    let page = directory.appendingPathComponent("measure-\(UUID()).html")
    let body = html.contains("</body>") ? html : "<!DOCTYPE html><html><body>\n\(html)\n</body></html>"
    try body.replacingOccurrences(of: "</body>", with: measuring + "\n</body>").write(
      to: page, atomically: true, encoding: .utf8)
    let (dom, log) = try open(page)
    let json = try #require(
      dom.components(separatedBy: "<pre id=\"measured\">").dropFirst().first?.components(
        separatedBy: "</pre>"
      ).first)
    let measured = try JSONDecoder().decode(Measured.self, from: Data(json.utf8))
    return (measured, log)
  }

  /// Three SVGs, each inline in a page: every lane's marbles are there as drawn, none is cut off
  /// at the right edge, and the browser logged no error.
  @Test(arguments: [
    "merge(marble \"a-b-c|\", marble \"-d--e|\") | throttle 2",
    "zip(timer 1, marble \"a--b-c|\")",
    "marble \"ab-c--d|\" | debounce 1.5",
  ])
  func picturesRenderWhole(_ pipeline: String) throws {
    let directory = try PictureTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("picture.svg")
    let drawn = try Pipesh.run(["--virtual-time", "-c", "draw \(pipeline) to: \"\(file.path)\""])
    #expect(drawn.status == 0, "\(drawn.stderr)")
    let svg = try String(contentsOf: file, encoding: .utf8)
    let (measured, log) = try Self.measure(svg, in: directory)
    let written = try PictureTests.marblesPerLane(try XMLDocument(xmlString: svg, options: []))
    #expect(measured.lanes == written)
    #expect(written.count >= 2 && written.allSatisfy { $0 > 0 })
    #expect(measured.beyond == 0)
    #expect(measured.width > 600 && measured.height > 100)
    #expect(measured.title == "draw \(pipeline)")
    #expect(measured.legend >= 3)
    #expect(!log.contains("CONSOLE"), "the browser logged: \(log)")
  }

  /// A later job of a session, traced to a chart: its bars start at the axis's 0 (its own start),
  /// not seconds to the right of it, as they did when the axis began at the session's 0.
  @Test func aLaterJobsChartStartsAtItsAxis() throws {
    let directory = try PictureTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("later.svg")
    let traced = try Pipesh.run([
      "--virtual-time", "-c", "timer 1 | take 5 | drain\ntrace timer 1 | take 2 to: \"\(file.path)\"",
    ])
    #expect(traced.stdout.contains("trace: wrote "), "\(traced.stderr)")
    let (measured, log) = try Self.measure(try String(contentsOf: file, encoding: .utf8), in: directory)
    let barStart = try #require(measured.barStart)
    #expect(abs(barStart - measured.axisStart) < 2, "bars from \(barStart), the axis from \(measured.axisStart)")
    #expect(measured.title == "trace timer 1 | take 2")
    #expect(measured.beyond == 0)
    #expect(!log.contains("CONSOLE"), "the browser logged: \(log)")
  }

  /// pipesh's page as the browser shows it: the picture rendered, and a screenshot that is not a
  /// blank page's.
  @Test func thePageRendersAndIsNotBlank() throws {
    let directory = try PictureTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("page.html")
    let drawn = try Pipesh.run(
      ["--virtual-time", "-c", "draw from \"<b>&\" \"x\" | map { $0 + \"!\" } to: \"\(file.path)\""])
    #expect(drawn.status == 0, "\(drawn.stderr)")
    let (measured, log) = try Self.measure(try String(contentsOf: file, encoding: .utf8), in: directory)
    #expect(measured.lanes == [2, 2])
    #expect(!log.contains("CONSOLE"), "the browser logged: \(log)")

    let blank = directory.appendingPathComponent("blank.html")
    try "<!DOCTYPE html><html><body></body></html>".write(to: blank, atomically: true, encoding: .utf8)
    let shot = directory.appendingPathComponent("page.png")
    let blankShot = directory.appendingPathComponent("blank.png")
    _ = try Self.open(file, screenshot: shot)
    _ = try Self.open(blank, screenshot: blankShot)
    let size = try FileManager.default.attributesOfItem(atPath: shot.path)[.size] as? Int ?? 0
    let blankSize = try FileManager.default.attributesOfItem(atPath: blankShot.path)[.size] as? Int ?? 0
    #expect(size > 3 * blankSize, "the screenshot (\(size) bytes) looks like a blank page's (\(blankSize) bytes)")
  }

  /// A lifetime chart from `trace … to:`: every row rendered, no reason cut off at the right edge.
  @Test func aLifetimeChartRendersWhole() throws {
    let directory = try PictureTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("chart.svg")
    let traced = try Pipesh.run(
      ["--virtual-time", "-c", "trace zip(timer 1, marble \"a-b|\") | map { 10 / ($0.0 - 1) } to: \"\(file.path)\""])
    #expect(traced.stdout.contains("trace: wrote "), "\(traced.stderr)")
    let (measured, log) = try Self.measure(try String(contentsOf: file, encoding: .utf8), in: directory)
    #expect(measured.nodes == 5)
    #expect(measured.beyond == 0)
    #expect(!log.contains("CONSOLE"), "the browser logged: \(log)")
  }

  /// A comparison from `compare … to:`: every lane's marbles rendered, nothing cut off.
  @Test func aComparisonRendersWhole() throws {
    let directory = try PictureTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("compare.svg")
    let compared = try Pipesh.run(["-c", "compare zip(marble \"ab|\", marble \"c---d-e|\") to: \"\(file.path)\""])
    #expect(compared.stdout.contains("compare: wrote "), "\(compared.stderr)")
    let svg = try String(contentsOf: file, encoding: .utf8)
    let (measured, log) = try Self.measure(svg, in: directory)
    #expect(measured.lanes == (try PictureTests.marblesPerLane(try XMLDocument(xmlString: svg, options: []))))
    #expect(measured.lanes.count == 6)
    #expect(measured.beyond == 0)
    #expect(!log.contains("CONSOLE"), "the browser logged: \(log)")
  }

  /// The `--html` report in the browser: its three pictures rendered, nothing logged.
  @Test func theReportRenders() throws {
    let directory = try PictureTests.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try PictureTests.reportScript.write(
      to: directory.appendingPathComponent("report.pipe"), atomically: true, encoding: .utf8)
    let result = try Pipesh.run(["--virtual-time", "--html", "report.pipe"], directory: directory)
    let page = directory.appendingPathComponent("report.html")
    try result.stdout.write(to: page, atomically: true, encoding: .utf8)
    let (dom, log) = try Self.open(page)
    #expect(dom.components(separatedBy: "<svg ").count == 4)
    #expect(!log.contains("CONSOLE"), "the browser logged: \(log)")
  }
}
