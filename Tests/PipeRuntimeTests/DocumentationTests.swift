import Foundation
import PipeRuntime
import PipeSema
import Testing

/// README's operator table is the registry's text: `help NAME` and the README cannot disagree.
@Suite("documentation")
struct DocumentationTests {
  static var readme: String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
  }

  static func table() -> String {
    var lines = ["| syntax | what it does | implementation |", "|---|---|---|"]
    for signature in Operators.signatures.all {
      let usage = signature.usage.replacingOccurrences(of: "|", with: "\\|")
      lines.append("| `\(usage)` | \(signature.summary) | \(signature.implementation) |")
    }
    return lines.joined(separator: "\n")
  }

  @Test func readmeOperatorTableMatchesTheRegistry() {
    let readme = Self.readme
    guard let start = readme.range(of: "<!-- ops -->\n"), let end = readme.range(of: "\n<!-- /ops -->") else {
      Issue.record("README.md has no <!-- ops --> section")
      return
    }
    let table = String(readme[start.upperBound..<end.lowerBound])
    #expect(table == Self.table(), "expected README section:\n\(Self.table())")
  }
}
