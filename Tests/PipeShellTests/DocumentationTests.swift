import Foundation
import PipeRuntime
import PipeSema
import PipeShell
import Testing

/// The operator and command tables of Docs/reference.md are the registries' text: `help NAME` and
/// the reference cannot disagree.
@Suite("documentation")
struct DocumentationTests {
  static var reference: String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("Docs/reference.md"), encoding: .utf8)) ?? ""
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
    for command in Commands.table.signatures {
      lines.append("| `\(command.usage.replacingOccurrences(of: "|", with: "\\|"))` | \(command.summary) |")
    }
    return lines.joined(separator: "\n")
  }

  static func section(_ name: String) -> String? {
    let reference = Self.reference
    guard let start = reference.range(of: "<!-- \(name) -->\n"),
      let end = reference.range(of: "\n<!-- /\(name) -->")
    else { return nil }
    return String(reference[start.upperBound..<end.lowerBound])
  }

  @Test func referenceOperatorTableMatchesTheRegistry() {
    #expect(
      Self.section("ops") == Self.table(), "expected Docs/reference.md section <!-- ops -->:\n\(Self.table())")
  }

  @Test func referenceCommandTableMatchesTheRegistry() {
    #expect(
      Self.section("commands") == Self.commandTable(),
      "expected Docs/reference.md section <!-- commands -->:\n\(Self.commandTable())")
  }
}
