import Foundation
import Locking
import PipeShell
import PipeSyntax
import Testing

/// Every `validate { … }` block of swift-async-algorithms' own tests, at the version this package
/// pins (its checkout under `.build/checkouts`), pasted into `validate` unchanged: each block whose
/// operators pipesh has passes; each AA expects to fail fails as AA says; each pipesh cannot
/// express is refused, naming what. The counts are pinned: a new AA version changes them visibly.
@Suite("swift-async-algorithms' validation diagrams, from its sources")
struct AsyncAlgorithmsValidationTests {
  /// One block: the test it is in, the failures AA expects of it (`validate(expectedFailures:)`),
  /// and its text from `{` to `}`.
  struct Block: CustomStringConvertible {
    let test: String
    let expectedFailures: [String]
    let text: String
    var description: String { test }
  }

  static var testsDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        ".build/checkouts/swift-async-algorithms/Tests/AsyncAlgorithmsTests")
  }

  /// The blocks of every test file, in file order; those with a theme of their own (emoji) are
  /// counted apart: they are not AA's notation.
  static func blocks() throws -> (blocks: [Block], themed: Int) {
    let directory = testsDirectory
    guard FileManager.default.fileExists(atPath: directory.path) else {
      throw Absent(path: directory.path)
    }
    let files = (FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
      .filter { $0.hasSuffix(".swift") }.sorted()
    var blocks: [Block] = []
    var themed = 0
    var seen: [String: Int] = [:]
    for file in files {
      let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      let characters = Array(text)
      var test = ""
      var index = 0
      while index < characters.count {
        if starts(characters, index, "func test") {
          let name = characters[(index + 5)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
          test = String(name)
        }
        guard starts(characters, index, "validate"), index == 0 || !characters[index - 1].isLetter else {
          index += 1
          continue
        }
        var cursor = index + "validate".count
        var arguments = ""
        if cursor < characters.count, characters[cursor] == "(" {
          let close = matching(characters, cursor, open: "(", close: ")")
          arguments = String(characters[cursor...close])
          cursor = close + 1
        }
        while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
        guard cursor < characters.count, characters[cursor] == "{" else {
          index += 1
          continue
        }
        let close = matching(characters, cursor, open: "{", close: "}")
        index = close + 1
        if arguments.contains("theme:") {
          themed += 1
          continue
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        var key = "\(name) \(test)"
        seen[key, default: 0] += 1
        if let count = seen[key], count > 1 { key += " (\(count))" }
        blocks.append(
          Block(test: key, expectedFailures: quoted(arguments), text: String(characters[cursor...close])))
      }
    }
    return (blocks, themed)
  }

  struct Absent: Error, CustomStringConvertible {
    let path: String
    var description: String {
      "swift-async-algorithms' test sources are not at \(path): build this package first (swift build), which checks them out"
    }
  }

  private static func starts(_ characters: [Character], _ index: Int, _ word: String) -> Bool {
    let word = Array(word)
    return index + word.count <= characters.count && Array(characters[index..<(index + word.count)]) == word
  }

  /// The index of the bracket that closes the one at `start`, brackets in strings not counted.
  private static func matching(_ characters: [Character], _ start: Int, open: Character, close: Character) -> Int {
    var depth = 0
    var inString = false
    var index = start
    while index < characters.count {
      let character = characters[index]
      if inString {
        if character == "\\" { index += 1 } else if character == "\"" { inString = false }
      } else if character == "\"" {
        inString = true
      } else if character == open {
        depth += 1
      } else if character == close {
        depth -= 1
        if depth == 0 { return index }
      }
      index += 1
    }
    return characters.count - 1
  }

  /// The string literals of `expectedFailures: [ … ]`, their `\"` unescaped.
  private static func quoted(_ text: String) -> [String] {
    var strings: [String] = []
    var current: String?
    var escaped = false
    for character in text {
      if var string = current {
        if escaped {
          string.append(character)
          escaped = false
          current = string
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          strings.append(string)
          current = nil
        } else {
          string.append(character)
          current = string
        }
      } else if character == "\"" {
        current = ""
      }
    }
    return strings
  }

  /// Runs `validate BLOCK` as a script: its status and what it wrote to standard error.
  static func run(_ block: Block) async -> (status: Int32, errors: [String]) {
    let captured = Locked<[String]>([])
    let console = Console()
    console.setLineWriter { line, stream in
      if stream == .error { captured.withLock { $0.append(line) } }
    }
    let shell = Shell(console: console, interactive: false, virtualTime: true, fusing: true)
    let status = await shell.engine.runScript(SourceFile(name: "aa.pipe", text: "validate " + block.text + "\n"))
    shell.engine.close()
    return (status, captured.withLock { $0 })
  }

  /// The blocks pipesh cannot express, by test, with what the refusal (status 2) says.
  static let refused: [String: String] = {
    var refused: [String: String] = [:]
    for test in ["signal_unsignaledTrailingChunk", "time_unsignaledTrailingChunk", "count_trailingChunk"] {
      refused["TestChunk.swift test_" + test] = "pipesh cannot run 'sumCharacters' here"
    }
    // `{ $0.first!.isUppercase == … }`; test_group_singleGroup's `{ _, _ in true }` runs.
    for test in ["group", "group_singleValue", "group_error"] {
      refused["TestChunk.swift test_" + test] = "pipesh cannot run this closure: chunked's closure"
    }
    for test in ["projection", "projection_singleValue", "projection_singleGroup", "projection_error"] {
      refused["TestChunk.swift test_" + test] = "pipesh has no chunked(on:)"
    }
    refused["TestTimer.swift test_tick2_event_skew3"] = "pipesh cannot run this closure: map's closure"
    for test in [
      "diagram", "diagram_space_noop", "diagram_string_input", "diagram_failure_mismatch_value",
      "diagram_failure_value_for_finish", "diagram_failure_finish_for_value", "diagram_failure_finish_for_error",
      "diagram_failure_error_for_finish", "diagram_failure_value_for_error", "diagram_failure_error_for_value",
      "diagram_failure_expected_value", "diagram_failure_expected_failure", "diagram_failure_unexpected_value",
      "diagram_failure_unexpected_failure",
    ] {
      // `{ item in await Task { item.capitalized }.value }`
      refused["TestValidationTests.swift test_" + test] = "pipesh cannot run this closure: map's closure"
    }
    for test in ["diagram_specification_produce_past_end", "diagram_specification_throw_past_end"] {
      refused["TestValidationTests.swift test_" + test] = "'violatingSpecification' is not an operator pipesh has"
    }
    refused["TestValidationTests.swift test_delayNext_into_emptyTick"] =
      "'LaggingAsyncSequence' is not an operator pipesh has"
    return refused
  }()

  /// Blocks pipesh runs whose output differs from AA's diagram, by test, with the difference as
  /// the failure says it. None at swift-async-algorithms 1.1.4.
  static let differences: [String: String] = [:]

  @Test("every block passes, fails as AA expects, differs as pinned, or is refused naming what")
  func everyBlock() async throws {
    let (blocks, themed) = try Self.blocks()
    #expect(blocks.count == 100, "validate blocks in AA's tests (a new AA version?)")
    #expect(themed == 1, "blocks with a theme of their own (emoji), not AA's notation")
    var (passed, failedAsExpected, refusals, differed) = (0, 0, 0, 0)
    for block in blocks {
      let (status, errors) = await Self.run(block)
      let said = errors.joined(separator: "\n")
      if let refusal = Self.refused[block.test] {
        refusals += 1
        #expect(status == 2 && errors.first?.contains(refusal) == true, "\(block.test): refused with \(said)")
      } else if let difference = Self.differences[block.test] {
        differed += 1
        #expect(status == 1 && said.contains(difference), "\(block.test): \(said)")
      } else if let expected = block.expectedFailures.first {
        // AA's own parse errors, in its words, at the diagram: refused before anything runs.
        failedAsExpected += 1
        #expect(status == 2 && said.contains("validate: " + expected), "\(block.test): expected \(expected); \(said)")
      } else {
        passed += 1
        #expect(status == 0 && errors.isEmpty, "\(block.test): \(said)")
      }
    }
    #expect(passed == 66)
    #expect(failedAsExpected == 6)
    #expect(refusals == 28)
    #expect(differed == 0)
  }
}
