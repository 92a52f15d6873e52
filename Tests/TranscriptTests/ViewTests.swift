import Foundation
import Testing

/// The views as a user on an 80- or 100-column screen sees them: every line fits, endless
/// pipelines stop at a horizon, ties are named as ties, options belong where they stand, colour
/// only on a terminal.
@Suite("views fit the screen and explain themselves")
struct ViewTests {
  static let long = "a stage text longer than anything a screen of eighty columns could hold in one line"

  /// Endless pipelines, wide values and long texts, through every text view.
  static let scripts = [
    "draw timer 1 | map { $0 * 2 }",
    "draw timer 0.5 | map { ($0 * 1000, \"value \\($0)\") } | take 30",
    "draw from 1 | map { \"\(long)\" }",
    "compare zip(marble \"ab|\", marble \"c---d-e|\")",
    "compare channel c of: Int | take 2",
    "compare marble \"abcdefghijklmnopqrstuvwxyz|\" | map { $0 + $0 + $0 } | debounce 0.5",
    "compare marble \"ab|\" | map { \"\(long)\" }",
    "timer 1 | map { \"\(long)\" } | drain &\nsleep 2\njobs\ninspect 1\ntop\ncancel 1",
    "trace from 1 2 | map { \"\(long): \\($0)\" } | drain",
    "compare marble \"abcdefgh|\" | chunks 3 every: 2.5",
    "compare merge(marble \"a-b^\", marble \"-c-d-e|\") | chunks 2 every: 1.5",
    "timer 1 | map { \"\(long)\" } | drain &\nzip(timer 0.1 | buffer 2 policy: newest, timer 1) | drain &\nsleep 2\nlint\ncancel all",
    "help", "help draw", "help compare", "help closures", "help throttle", "help top", "help lint",
  ]

  @Test(arguments: [80, 100])
  func everyLineFits(_ columns: Int) throws {
    for script in Self.scripts {
      let result = try Pipesh.run(["--virtual-time", "-c", script], environment: ["COLUMNS": String(columns)])
      #expect(result.status == 0 || script.contains("^"), "\(script)\n\(result.stderr)")
      // What the views print, and their notes on standard error (an error message is not a view).
      let notes = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("error:") }
      for line in result.stdout.split(separator: "\n") + notes {
        #expect(line.count <= columns, "\(script): \(line.count) columns: \(line)")
      }
      #expect(result.stdout.utf8.count < 10_000, "\(script): \(result.stdout.utf8.count) bytes")
    }
  }

  /// A lane wider than the screen is cut at its edge, and standard error says so.
  @Test func aCutLaneIsSaidToBeCut() throws {
    let result = try Pipesh.run(["-c", "draw timer 1 | take 90"], environment: ["COLUMNS": "80"])
    #expect(result.stdout.contains("…"))
    #expect(result.stderr.contains("draw: lines cut at the screen's edge (80 columns"))
    let whole = try Pipesh.run(["-c", "draw timer 1 | take 90"], environment: ["COLUMNS": "1000"])
    #expect(!whole.stderr.contains("cut"), "\(whole.stderr)")
  }

  /// A ruler stands above the lanes, and a value wider than one column widens its step in every
  /// lane: the column of each step is the same in all of them.
  @Test func lanesShareOneGridUnderARuler() throws {
    let result = try Pipesh.run(["-c", "draw marble \"abcdefghijk|\" | map { $0 == \"b\" ? \"bbb\" : $0 }"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 3, "\(result.stdout)")
    #expect(lines[0].contains("1s") && lines[0].contains("5s") && lines[0].contains("10s"), "\(lines[0])")
    // 'k' is the eleventh step in both lanes: it stands in the same column.
    let columns = lines.dropFirst().map { $0.distance(from: $0.startIndex, to: $0.lastIndex(of: "k") ?? $0.startIndex) }
    #expect(columns[0] == columns[1], "\(result.stdout)")
    #expect(lines[2].contains("'bbb'"))
  }

  /// `≈` where the two sides differ only in the order of events at one instant (and the row then
  /// says which), `≠` where they really differ, nothing where they agree.
  @Test(arguments: [
    ("marble \"abcdefgh|\" | chunks 3 every: 2.5", "chunks 3 every: 2.5", "≈"),
    ("marble \"abcdefgh|\" | chunks 3 every: 2.4", "chunks 3 every: 2.4", " "),
    ("merge(marble \"a-b^\", marble \"-c-d-e|\")", "merge(", "≈"),
    ("merge(marble \"a-b^\", marble \"-c--d-e|\")", "merge(", " "),
    // A tie at 4s, and a real difference at the end (Combine's debounce drops what is pending).
    ("marble \"ab-c|\" | debounce 2", "debounce 2", "≠"),
    ("marble \"abc|\" | take 2", "take 2", "≠"),
    ("marble \"a-b---c|\" | throttle 3", "throttle 3", "≠"),
  ])
  func tiesAreNamed(_ pipeline: String, _ stage: String, _ mark: String) throws {
    let result = try Pipesh.run(["-c", "compare " + pipeline], environment: ["COLUMNS": "200"])
    let row = result.stdout.split(separator: "\n").first { $0.dropFirst(2).hasPrefix(stage) }
    let shown = try #require(row, "\(result.stdout)")
    #expect(String(shown.prefix(1)) == mark, "\(result.stdout)")
    if stage == "debounce 2" {
      #expect(
        result.stdout.contains(
          "≠ debounce 2: a tie at 4s ('c' and a deadline of debounce 2), then a real difference at 5s"),
        "\(result.stdout)")
    }
    if mark == "≈" {
      #expect(result.stdout.contains("≈ tie at "), "\(result.stdout)")
      #expect(!result.stdout.contains("≠ the Combine line differs"), "\(result.stdout)")
    }
  }

  /// An option inside parentheses belongs to what is inside; one after a last stage that takes
  /// the same label could mean either, and is refused with both spellings.
  @Test func optionsBelongWhereTheyStand() throws {
    let inside = try Pipesh.run(["-c", "draw (marble \"ab|\" tick: 2) | take 1"])
    #expect(inside.status == 0, "\(inside.stderr)")
    let after = try Pipesh.run(["-c", "draw (marble \"ab|\") tick: 2"])
    #expect(after.status == 0, "\(after.stderr)")
    let ambiguous = try Pipesh.run(["-c", "draw marble \"ab|\" tick: 2"])
    #expect(ambiguous.status == 2)
    #expect(ambiguous.stderr.contains("could be marble's or draw's"), "\(ambiguous.stderr)")
    #expect(ambiguous.stderr.contains("(marble \"ab|\" tick: 2)"), "\(ambiguous.stderr)")
  }

  /// Nothing is coloured into a pipe, even without NO_COLOR.
  @Test func noColourIntoAPipe() throws {
    let result = try Pipesh.run(
      ["-c", "from 1 | mapp\n"], environment: ["NO_COLOR": ""])
    #expect(result.status == 2)
    #expect(!result.stderr.contains("\u{1B}["), "\(result.stderr)")
  }
}
