import Foundation
import Testing

/// `draw … demand: true` against swift-async-algorithms' own buffer diagrams (1.1.4,
/// `Tests/AsyncAlgorithmsTests/TestBuffer.swift`): the same input, a consumer asking at the ticks
/// the diagram's `,` marks say, and the buffer's lane with its `asked` line read back into AA's
/// notation is AA's expected output.
@Suite("draw's demand lines are AA's validation diagrams")
struct DemandTests {
  /// AA's diagram, the pipeline that reproduces it (a zip with a pacing marble asks the buffer
  /// only when the pacing marble's previous element came: at the ticks AA's consumer asks), and
  /// the buffer's label.
  static let diagrams: [(aa: String, pipeline: String, label: String)] = [
    // test_given_a_base_sequence_when_bufferingOldest_then_the_policy_is_applied: "X-12-   34-    5   |"
    (
      "X,,,[1,],,[2,],[3,][5,]|", "zip(marble \"X-12-34-5|\" | buffer 2 policy: oldest, marble \"----a--b-cde|\")",
      "buffer 2 policy: oldest"
    ),
    // test_given_a_base_sequence_when_bufferingNewest_then_the_policy_is_applied: "X-12-   34    -5|"
    (
      "X,,,[1,],,[3,],[4,][5,]|", "zip(marble \"X-12-34-5|\" | buffer 2 policy: newest, marble \"----a--b-cde|\")",
      "buffer 2 policy: newest"
    ),
  ]

  @Test(arguments: diagrams.indices)
  func bufferDiagram(_ index: Int) throws {
    let (aa, pipeline, label) = Self.diagrams[index]
    let result = try Pipesh.run(
      ["--virtual-time", "-c", "draw \(pipeline) demand: true"], environment: ["COLUMNS": "400"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let ruler = try #require(lines.first)
    let start = try #require(ruler.firstIndex { $0 != " " }).utf16Offset(in: ruler)
    let at = try #require(lines.firstIndex { $0.hasPrefix(label + " ") }, "\(result.stdout)")
    try #require(lines.count > at + 1 && lines[at + 1].hasPrefix("  asked "), "\(result.stdout)")
    func cells(_ line: String) -> String { String(line.dropFirst(start).filter { $0 != " " }) }
    let ours = Self.asAA(lane: cells(lines[at]), asked: cells(lines[at + 1]))
    #expect(ours == Self.normalized(aa), "\(aa)\n\(result.stdout)")
  }

  /// A diagram's steps, each its events as written (`X`, `1,`, `45`, `|`, `,`, `-`).
  static func steps(_ diagram: String) -> [String] {
    var steps: [String] = []
    var group: String?
    for character in diagram {
      switch character {
      case "[": group = ""
      case "]":
        steps.append(group ?? "")
        group = nil
      default:
        if group != nil { group?.append(character) } else { steps.append(String(character)) }
      }
    }
    return steps
  }

  /// AA's diagram with each step of values followed by a lone `,` written as AA's `[v,]`: in AA's
  /// test driver both move the consumer's next ask past the `,` alike (`X,,` asks at the same tick
  /// as `[X,],,`), and the demand line says it the second way.
  static func normalized(_ diagram: String) -> [String] {
    let steps = steps(diagram)
    return steps.indices.map { index in
      let step = steps[index]
      let valued = !["-", ",", "|", "^"].contains(step) && !step.hasSuffix(",")
      return valued && index + 1 < steps.count && steps[index + 1] == "," ? step + "," : step
    }
  }

  /// A lane and its `asked` line as AA writes its output: a value answered with nothing outstanding
  /// after it (`.`) is `[v,]`, a column with no request (`,`) is `,`.
  static func asAA(lane: String, asked: String) -> [String] {
    zip(steps(lane), asked).map { events, mark in
      switch (events, mark) {
      case ("-", ","): ","
      case ("-", "-"): "-"
      case (let events, "."): events.contains("|") || events.contains("^") ? events : events + ","
      case (let events, "-"): events
      default: "?\(events)\(mark)"
      }
    }
  }
}
