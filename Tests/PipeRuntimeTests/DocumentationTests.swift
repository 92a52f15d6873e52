import Foundation
import PipeRuntime
import PipeSema
import PipeShell
import Testing

/// README's operator and command tables are the registries' text: `help NAME` and the README
/// cannot disagree.
@Suite("documentation")
struct DocumentationTests {
  static var readme: String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
  }

  static func table() -> String {
    var lines = ["| syntax | what it does | implementation |", "|---|---|---|"]
    for signature in OperatorKind.signatures.all {
      let usage = signature.usage.replacingOccurrences(of: "|", with: "\\|")
      lines.append("| `\(usage)` | \(signature.summary) | \(signature.implementation) |")
    }
    return lines.joined(separator: "\n")
  }

  static func commandTable() -> String {
    var lines = ["| syntax | what it does |", "|---|---|"]
    for command in CommandKind.signatures.all {
      lines.append("| `\(command.usage.replacingOccurrences(of: "|", with: "\\|"))` | \(command.summary) |")
    }
    return lines.joined(separator: "\n")
  }

  static func section(_ name: String) -> String? {
    let readme = Self.readme
    guard let start = readme.range(of: "<!-- \(name) -->\n"), let end = readme.range(of: "\n<!-- /\(name) -->")
    else { return nil }
    return String(readme[start.upperBound..<end.lowerBound])
  }

  @Test func readmeOperatorTableMatchesTheRegistry() {
    #expect(Self.section("ops") == Self.table(), "expected README section <!-- ops -->:\n\(Self.table())")
  }

  @Test func readmeCommandTableMatchesTheRegistry() {
    #expect(
      Self.section("commands") == Self.commandTable(),
      "expected README section <!-- commands -->:\n\(Self.commandTable())")
  }
}
