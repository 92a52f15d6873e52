import Foundation
import Testing

/// An export has only the helpers it uses: every helper it declares at the top level (a function,
/// a type, a method in an `extension`) is named somewhere else in it. Checked on the exports of
/// the export test's pipelines and of every operator's `help` example, as snippets (`swift P`,
/// `swift P plain: true`) and as programs (`--emit-swift`, `--emit-swift --plain`). Fast: nothing
/// is compiled (`ExportTests` compiles them).
@Suite("exported helpers")
struct ExportHelperTests {
  @Test func theReportedCaseHasNoUnusedHelpers() throws {
    let pipeline = "from 3 1 2 | flatMap { from $0 | delay $0 } concurrency: 2 | print"
    let snippet = try Pipesh.run(["-c", "swift " + pipeline])
    #expect(snippet.status == 0, "\(snippet.stderr)")
    for unused in ["checkedCount", "checkedSize", "checkedStep", "ChannelFailure"] {
      #expect(!snippet.stdout.contains(unused), "swift \(pipeline) declares \(unused)")
    }
    #expect(snippet.stdout.contains("func checkedDuration("), "delay $0 is checked per element")
    #expect(Self.unusedHelpers(in: snippet.stdout).isEmpty)
  }

  /// `checked` has two overloads that share a name (one argument: `map`; two: `reduce`, `sum`): a
  /// program has the one its closures call, which a check of names alone cannot tell.
  @Test func onlyTheCheckedOverloadUsedIsDeclared() throws {
    for (pipeline, overload) in [
      ("from 1 2 3 | map { $0 * 2 } checked: true", "func checked<Input, Output>("),
      ("from 1 2 3 | reduce 0 { $0 + $1 } checked: true", "func checked<Result, Input>("),
      ("from 1 2 3 | sum checked: true", "func checked<Result, Input>("),
    ] {
      let snippet = try Pipesh.run(["-c", "swift " + pipeline])
      #expect(snippet.status == 0, "\(snippet.stderr)")
      let declared = snippet.stdout.components(separatedBy: "func checked<").count - 1
      #expect(declared == 1 && snippet.stdout.contains(overload), "swift \(pipeline):\n\(snippet.stdout)")
    }
  }

  /// A `combineLatest` of subjects is the `@Published` view-model case: the export carries the
  /// app-side form (`@Published` properties, `combineLatest` of their `.values`) as a comment.
  @Test func theViewModelCaseCarriesThePublishedForm() throws {
    let pipeline = "combineLatest(subject a initial: 1, subject name initial: \"x\") | take 1"
    let snippet = try Pipesh.run(["-c", "swift " + pipeline])
    let program = try Pipesh.run(["--emit-swift", "-c", pipeline])
    for (form, text) in [("swift", snippet.stdout), ("--emit-swift", program.stdout)] {
      let comments = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(comments.contains("//     @Published var a: Int = 1"), "\(form):\n\(text)")
      #expect(comments.contains("//     @Published var name: String = \"x\""), "\(form):\n\(text)")
      #expect(
        comments.contains("//   let latest = combineLatest(model.$a.values, model.$name.values)"), "\(form):\n\(text)")
    }
    // Not for a combineLatest of other sources.
    let timers = try Pipesh.run(["-c", "swift combineLatest(timer 1, timer 2) | take 3"])
    #expect(!timers.stdout.contains("@Published"))
  }

  @Test func everyDeclaredHelperIsUsed() throws {
    let pipelines = ExportTests.snippets + ExportTests.generated + (try Self.catalogueExamples())
    #expect(pipelines.count > 100)
    for pipeline in pipelines {
      // An example of several statements (`let`, `&`, `;`) is a script: exported as a program only.
      let isScript = pipeline.hasPrefix("let ") || pipeline.contains("&") || pipeline.contains(";")
      let plain = isScript ? [] : pipeline.contains("checked: true") ? [""] : ["", " plain: true"]
      for option in plain {
        let snippet = try Pipesh.run(["-c", "swift " + pipeline + option], directory: TranscriptTests.directory)
        #expect(snippet.status == 0, "swift \(pipeline)\(option): \(snippet.stderr)")
        let unused = Self.unusedHelpers(in: snippet.stdout)
        #expect(unused.isEmpty, "swift \(pipeline)\(option) declares \(unused) and never uses them")
      }
      // `checked: true` is the `swift` command's: a program is checked unless --plain.
      let script = pipeline.replacingOccurrences(of: " checked: true", with: "")
      for option in [[], ["--plain"]] {
        let program = try Pipesh.run(["--emit-swift"] + option + ["-c", script], directory: TranscriptTests.directory)
        // A script's first statement alone (`channel jobs | take 2 &`) may not check: its send is later.
        #expect(program.status == 0 || isScript, "--emit-swift \(option) -c \(pipeline): \(program.stderr)")
        guard program.status == 0 else { continue }
        let unused = Self.unusedHelpers(in: program.stdout)
        #expect(unused.isEmpty, "--emit-swift \(option) of \(pipeline) declares \(unused) and never uses them")
      }
    }
  }

  /// The example of every operator's `help`, as `ops` lists them (`> timer 1 | take 3`).
  static func catalogueExamples() throws -> [String] {
    let ops = try Pipesh.run(["-c", "ops"])
    let names = ops.stdout.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("  "), let word = line.split(separator: " ").first else { return nil }
      return String(word.prefix { $0.isLetter })
    }
    #expect(names.count > 40, "ops printed:\n\(ops.stdout)")
    var examples: [String] = []
    for name in Set(names).sorted() {
      let help = try Pipesh.run(["-c", "help \(name)"])
      let lines = help.stdout.split(separator: "\n")
      guard let start = lines.firstIndex(of: "example:"), start + 1 < lines.count else { continue }
      let example = lines[start + 1].trimmingCharacters(in: .whitespaces)
      if example.hasPrefix("> ") { examples.append(String(example.dropFirst(2))) }
    }
    return examples
  }

  /// The names of the helpers `text` declares that nothing outside their declarations names.
  static func unusedHelpers(in text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Top-level blocks: each starts at a line at column 0 that is code, and runs to the next.
    var blocks: [[String]] = []
    for line in lines {
      let code =
        !line.isEmpty && !line.hasPrefix(" ") && !line.hasPrefix("}") && !line.hasPrefix("//")
        && !line.hasPrefix("#") && !line.hasPrefix("where ")
      if code || blocks.isEmpty { blocks.append([]) }
      blocks[blocks.count - 1].append(line)
    }
    var declared: [String: Set<Int>] = [:]
    for (index, block) in blocks.enumerated() {
      guard let first = block.first else { continue }
      if let name = declaredName(first, keywords: ["func", "struct", "enum", "final class", "class", "actor"]) {
        declared[name, default: []].insert(index)
      }
      // Methods of an extension (`.delayed(by:)`, `adding(_:)`), named with a `.` where used.
      if first.hasPrefix("extension ") {
        for line in block where line.hasPrefix("  ") && !line.hasPrefix("   ") {
          if let name = declaredName(String(line.dropFirst(2)), keywords: ["func", "static func"]) {
            declared[name, default: []].insert(index)
          }
        }
      }
    }
    return declared.keys.sorted().filter { name in
      let indices = declared[name] ?? []
      let elsewhere = blocks.enumerated().filter { !indices.contains($0.offset) }.flatMap(\.element)
      return !elsewhere.contains { line in
        let code = line.trimmingCharacters(in: .whitespaces)
        return !code.hasPrefix("//") && mentions(code, name)
      }
    }
  }

  /// `NAME` of `private func NAME(`, `fileprivate struct NAME<`, `func NAME(`…
  static func declaredName(_ line: String, keywords: [String]) -> String? {
    var rest = Substring(line)
    for modifier in ["private ", "fileprivate "] where rest.hasPrefix(modifier) {
      rest = rest.dropFirst(modifier.count)
    }
    guard let keyword = keywords.first(where: { rest.hasPrefix($0 + " ") }) else { return nil }
    let name = rest.dropFirst(keyword.count + 1).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    return name.isEmpty ? nil : String(name)
  }

  /// Whether `line` names `name` as a word.
  static func mentions(_ line: String, _ name: String) -> Bool {
    var searched = line[...]
    while let range = searched.range(of: name) {
      let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
      let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
      let isWordPart: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
      if !isWordPart(before) && !isWordPart(after) { return true }
      searched = line[range.upperBound...]
    }
    return false
  }
}
