import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every run pasted in the documentation is run again, and must print what the page says.
///
/// A pasted run is a fenced code block whose first line starts with `$ pipesh `. Each `$ ` line
/// in it is a command (it goes on over the next lines while a quote is open), run by bash with
/// `pipesh` the binary under test; the lines up to the next `$ ` line are exactly what it prints,
/// standard output and standard error together (blank lines at the end of a command's lines only
/// separate it from the next command). The commands of one block run one after another in one
/// fresh directory that shows the repository's files by the same relative paths (`Examples/`,
/// `Docs/`…), so a file one command writes (`to: "take.trace"`) is there for the next and never in
/// the repository. The environment has `COLUMNS=100` and `NO_COLOR=1`; an HTML comment on the line
/// just before the fence changes that for its block:
///
///     <!-- doctest: columns=80 -->          views fit 80 columns
///     <!-- doctest: stdin=LINES -->         standard input (\n for a line end; else it is empty)
///     <!-- doctest: cwd=DIR -->             run in a copy of the repository's folder DIR instead
///
/// A command `$ pipesh [ARGUMENTS]` whose lines start with a prompt (`pipesh[0]> `) is a session
/// at a terminal: it runs in a pseudo-terminal of 100 columns, each prompt's line typed after the
/// prompt appears, and what the terminal shows up to the last prompt must be those lines.
@Suite("pasted runs")
struct PastedRunTests {
  /// The Markdown files whose pasted runs are checked.
  static let pages: [String] = {
    let docs =
      (try? FileManager.default.contentsOfDirectory(atPath: ExportTests.root.appendingPathComponent("Docs").path))
      ?? []
    return ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
      + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
  }()

  static let blocks: [PastedRun] = pages.flatMap { page in
    let text = (try? String(contentsOf: ExportTests.root.appendingPathComponent(page), encoding: .utf8)) ?? ""
    return PastedRun.blocks(in: text, page: page)
  }

  @Test("pasted run", arguments: blocks)
  func pastedRun(_ block: PastedRun) throws {
    let directory = try Self.workingDirectory(showing: block.options["cwd"])
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in block.commands {
      if command.isSession {
        try Self.checkSession(command, of: block)
        continue
      }
      let result = try Self.run(command.text, in: directory, options: block.options)
      #expect(!result.timedOut, "\(block.page):\(command.line): `\(command.text)` did not end")
      let expected = Self.withoutTrailingBlankLines(command.output)
      let actual = Self.withoutTrailingBlankLines(result.stdout)
      #expect(
        actual == expected,
        """
        \(block.page):\(command.line): `$ \(command.text)` printed something else
        \(Self.firstDifference(expected: expected, actual: actual))
        --- expected (the page) ---
        \(expected)
        --- actual ---
        \(actual)
        """)
    }
  }

  @Test func theDocumentationPastesRuns() {
    #expect(Self.pages.contains("Docs/reference.md"))
    #expect(Self.blocks.count >= 20)
    #expect(Self.blocks.contains { $0.page == "README.md" })
  }

  /// The parsing the runs rely on: commands, continuation lines, outputs and options.
  @Test func blocksAreReadAsWritten() {
    let page = """
      Text.

      <!-- doctest: columns=80 stdin=a\\nb -->
      ```
      $ pipesh -c 'from 1 2
      3'
      1
      2

      $ echo "it's" | head -1
      it's
      ```

      ```
      pipesh[0]> from 1
      ```
      """
    let blocks = PastedRun.blocks(in: page, page: "x.md")
    #expect(blocks.count == 1)
    #expect(blocks.first?.options == ["columns": "80", "stdin": "a\nb"])
    #expect(blocks.first?.commands.map(\.text) == ["pipesh -c 'from 1 2\n3'", "echo \"it's\" | head -1"])
    #expect(blocks.first?.commands.map(\.output) == ["1\n2\n", "it's"])
    #expect(blocks.first?.commands.map(\.line) == [5, 10])
  }

  /// Types a session's lines at a terminal and compares what it showed.
  static func checkSession(_ command: PastedRun.Command, of block: PastedRun) throws {
    let arguments = command.text.split(separator: " ").dropFirst().map(String.init)
    let terminal = try Terminal(arguments: arguments)
    try terminal.expect("]> ")
    for line in command.output.split(separator: "\n", omittingEmptySubsequences: false) {
      guard let typed = PastedRun.typed(String(line)) else { continue }
      terminal.type(typed + "\r")
      try terminal.expect("]> ")
    }
    terminal.type("\u{4}")
    try terminal.expectExit(0)
    var shown = terminal.shown.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    if let last = shown.range(of: "pipesh[", options: .backwards) { shown = String(shown[..<last.lowerBound]) }
    let expected = Self.withoutTrailingBlankLines(command.output)
    let actual = Self.withoutTrailingBlankLines(shown)
    #expect(
      actual == expected,
      """
      \(block.page):\(command.line): the session `$ \(command.text)` showed something else
      \(Self.firstDifference(expected: expected, actual: actual))
      --- expected (the page) ---
      \(expected)
      --- actual ---
      \(actual)
      """)
  }

  static func withoutTrailingBlankLines(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  /// The first line where the two differ, said in words.
  static func firstDifference(expected: String, actual: String) -> String {
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(expectedLines.count, actualLines.count) {
      let want = index < expectedLines.count ? String(expectedLines[index]) : "(nothing)"
      let got = index < actualLines.count ? String(actualLines[index]) : "(nothing)"
      if want != got { return "first difference at output line \(index + 1):\n  page: \(want)\n  run:  \(got)" }
    }
    return "no difference"
  }

  /// A fresh directory with a link to each of the files and folders at the top of the repository
  /// (or a copy of its folder `folder`: `pipesh test` does not follow links to folders), and
  /// `.bin/pipesh`, a link to the binary under test.
  static func workingDirectory(showing folder: String? = nil) throws -> URL {
    let files = FileManager.default
    let directory = files.temporaryDirectory.appendingPathComponent("pipesh-pasted-\(UUID())")
    try files.createDirectory(at: directory, withIntermediateDirectories: true)
    let root = folder.map { ExportTests.root.appendingPathComponent($0) } ?? ExportTests.root
    for name in try files.contentsOfDirectory(atPath: root.path) where !name.hasPrefix(".") {
      if folder == nil {
        try files.createSymbolicLink(
          at: directory.appendingPathComponent(name), withDestinationURL: root.appendingPathComponent(name))
      } else {
        try files.copyItem(at: root.appendingPathComponent(name), to: directory.appendingPathComponent(name))
      }
    }
    let bin = directory.appendingPathComponent(".bin")
    try files.createDirectory(at: bin, withIntermediateDirectories: true)
    try files.createSymbolicLink(
      at: bin.appendingPathComponent("pipesh"), withDestinationURL: Pipesh.executable.standardizedFileURL)
    return directory
  }

  /// Runs one command with bash in `directory`, standard output and error into one pipe.
  static func run(_ command: String, in directory: URL, options: [String: String]) throws -> Pipesh.Result {
    let path =
      directory.appendingPathComponent(".bin").path + ":"
      + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return try Pipesh.run(
      ["-c", command], stdin: options["stdin"], directory: directory,
      environment: [
        "PATH": path, "COLUMNS": options["columns"] ?? "100",
        "PIPESH_HISTORY": directory.appendingPathComponent(".history").path,
      ],
      executable: URL(fileURLWithPath: "/bin/bash"), mergingErrors: true)
  }
}

/// One fenced block of a page that pastes a run: its commands, each with what it printed.
struct PastedRun: Sendable, CustomTestStringConvertible {
  struct Command: Sendable {
    /// The command as bash reads it, its lines joined by line ends.
    var text: String
    /// The page's line of its `$ `.
    var line: Int
    /// What the page says it prints.
    var output: String

    /// Whether it is a session at a terminal: `$ pipesh [ARGUMENTS]`, then prompts and what they show.
    var isSession: Bool { PastedRun.typed(String(output.prefix { $0 != "\n" })) != nil }
  }

  /// What a line that starts with a prompt (`pipesh[1]> jobs`) typed there, or nil.
  static func typed(_ line: String) -> String? {
    guard line.hasPrefix("pipesh["), let end = line.range(of: "]> ") else { return nil }
    guard line[line.index(line.startIndex, offsetBy: 7)..<end.lowerBound].allSatisfy(\.isNumber) else { return nil }
    return String(line[end.upperBound...])
  }

  let page: String
  /// The page's line of the opening fence.
  let line: Int
  let options: [String: String]
  let commands: [Command]

  var testDescription: String { "\(page):\(line)" }

  /// The pasted runs of a Markdown page.
  static func blocks(in text: String, page: String) -> [PastedRun] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [PastedRun] = []
    var index = 0
    while index < lines.count {
      let fence = lines[index].trimmingCharacters(in: .whitespaces)
      guard fence.hasPrefix("```") else {
        index += 1
        continue
      }
      let indent = lines[index].prefix { $0 == " " }.count
      var end = index + 1
      while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
      let body = lines[(index + 1)..<min(end, lines.count)].map {
        String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count)))
      }
      if let first = body.first, first.hasPrefix("$ pipesh ") {
        let comment = index > 0 ? lines[index - 1] : ""
        blocks.append(
          PastedRun(
            page: page, line: index + 1, options: options(comment), commands: commands(body, firstLine: index + 2)))
      }
      index = end + 1
    }
    return blocks
  }

  /// `<!-- doctest: key=value … -->`; a value runs to the next ` key=` or the comment's end.
  static func options(_ comment: String) -> [String: String] {
    let text = comment.trimmingCharacters(in: .whitespaces)
    guard text.hasPrefix("<!-- doctest:"), text.hasSuffix("-->") else { return [:] }
    let inner = text.dropFirst("<!-- doctest:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
    var options: [String: String] = [:]
    for word in inner.split(separator: " ") {
      guard let equals = word.firstIndex(of: "=") else { continue }
      let key = String(word[..<equals])
      options[key] = String(word[word.index(after: equals)...]).replacingOccurrences(of: "\\n", with: "\n")
    }
    return options
  }

  static func commands(_ body: [String], firstLine: Int) -> [Command] {
    var commands: [Command] = []
    var index = 0
    while index < body.count {
      guard body[index].hasPrefix("$ ") else {
        index += 1
        continue
      }
      let line = firstLine + index
      var text = String(body[index].dropFirst(2))
      index += 1
      while Self.quoteIsOpen(text), index < body.count {
        text += "\n" + body[index]
        index += 1
      }
      var output: [String] = []
      while index < body.count, !body[index].hasPrefix("$ ") {
        output.append(body[index])
        index += 1
      }
      commands.append(Command(text: text, line: line, output: output.joined(separator: "\n")))
    }
    return commands
  }

  /// Whether bash would read on past the end of `text`: a quote is open, or the last line ends in `\`.
  static func quoteIsOpen(_ text: String) -> Bool {
    var quote: Character?
    var escaped = false
    for character in text {
      if escaped {
        escaped = false
      } else if quote == "'" {
        if character == "'" { quote = nil }
      } else if character == "\\" {
        escaped = true
      } else if let open = quote {
        if character == open { quote = nil }
      } else if character == "'" || character == "\"" {
        quote = character
      }
    }
    return quote != nil || escaped
  }
}

/// The links between the documentation's pages lead somewhere: to a file of the repository, and
/// to a heading of the page where they name one (`Docs/exploring.md#pictures-draw--to-fsvg`), as
/// GitHub makes a heading's anchor. Pages move; their links must move with them.
@Suite("documentation links")
struct DocumentationLinkTests {
  @Test(arguments: PastedRunTests.pages)
  func linksResolve(_ page: String) throws {
    let root = ExportTests.root
    let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    let folder = root.appendingPathComponent(page).deletingLastPathComponent()
    for (line, target) in Self.links(in: text) {
      if target.contains("://") || target.hasPrefix("mailto:") { continue }
      let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let path = String(parts[0])
      let file = path.isEmpty ? root.appendingPathComponent(page) : folder.appendingPathComponent(path)
      #expect(
        FileManager.default.fileExists(atPath: file.path), "\(page):\(line): the link \(target) leads to no file")
      guard parts.count == 2, file.pathExtension == "md",
        let linked = try? String(contentsOf: file, encoding: .utf8)
      else { continue }
      let anchors = Self.anchors(of: linked)
      #expect(
        anchors.contains(String(parts[1])),
        "\(page):\(line): the link \(target) names no heading of \(file.lastPathComponent)")
    }
  }

  @Test func anchorsAreGitHubs() {
    #expect(Self.anchor("Pictures: `draw … to: \"F.svg\"`") == "pictures-draw--to-fsvg")
    #expect(Self.anchor("The language on one screen") == "the-language-on-one-screen")
    #expect(
      Self.anchor("Bugs of swift-async-algorithms 1.1.4 worked around, not fixed")
        == "bugs-of-swift-async-algorithms-114-worked-around-not-fixed")
  }

  /// The targets of `[text](target)` outside code blocks and code spans, with their lines.
  static func links(in text: String) -> [(Int, String)] {
    var links: [(Int, String)] = []
    var inBlock = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inBlock.toggle() }
      if inBlock { continue }
      var inSpan = false
      var rest = Substring(line)
      while let character = rest.first {
        if character == "`" { inSpan.toggle() }
        if !inSpan, rest.hasPrefix("]("), let close = rest.firstIndex(of: ")") {
          links.append((index + 1, String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])))
          rest = rest[close...]
        }
        rest = rest.dropFirst()
      }
    }
    return links
  }

  /// The anchors of a page's headings, as GitHub makes them.
  static func anchors(of text: String) -> Set<String> {
    var anchors: Set<String> = []
    var inBlock = false
    for line in text.split(separator: "\n") {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inBlock.toggle() }
      if inBlock || !line.hasPrefix("#") { continue }
      let title = line.drop { $0 == "#" }
      guard title.first == " " else { continue }
      anchors.insert(anchor(String(title.dropFirst())))
    }
    return anchors
  }

  /// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces as `-`.
  static func anchor(_ title: String) -> String {
    String(
      title.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
        return nil
      })
  }
}
