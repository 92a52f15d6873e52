import PipeSyntax
import PipeViews

/// The report `pipesh test` prints: a line per file in the order of their paths, a failing file's
/// standard error and output drawn under its line, and `N passed, N failed` last. No times: the
/// same tests print the same bytes on every run.
enum TestReport {
  /// At most this many of the last lines of a test's standard output are drawn under its line.
  static let outputLines = 40

  /// The line of `result`, with its standard error and output under it when it failed (or with
  /// `verbose`, always).
  static func entry(_ result: TestResult, verbose: Bool, colour: Bool) -> String {
    let passed = result.verdict == .passed
    let word = passed ? Paint.paint("PASS", .green, on: colour) : Paint.paint("FAIL", .red, bold: true, on: colour)
    let counts = summary(result)
    var text = "\(word)  \(result.file.path)" + (counts.isEmpty ? "" : " (\(counts))") + "\n"
    guard !passed || verbose else { return text }
    text += indented(result.error)
    if case .notStarted(let why) = result.ending { text += "    \(why)\n" }
    if let problem = result.problem { text += "    \(problem)\n" }
    // What a test stopped at the time limit printed depends on when it was stopped: left out, so
    // that the report stays the same bytes (the JUnit file has it).
    var output =
      result.stoppedAfter == nil ? result.output.split(separator: "\n", omittingEmptySubsequences: false) : []
    if output.last == "" { output.removeLast() }
    if !output.isEmpty {
      text += "  output:\n"
      if output.count > outputLines {
        text += "    … (\(output.count - outputLines) lines before these)\n"
        output.removeFirst(output.count - outputLines)
      }
      text += indented(output.joined(separator: "\n"))
    }
    return text
  }

  /// `3 expectations held`, `1 of 3 expectations failed`, `did not run, status 2`, or both.
  static func summary(_ result: TestResult) -> String {
    var parts: [String] = []
    let count = result.expectations.count
    let noun = count == 1 ? "expectation" : "expectations"
    if result.failedExpectations > 0 {
      parts.append("\(result.failedExpectations) of \(count) \(noun) failed")
    } else if count > 0 {
      parts.append("\(count) \(noun) held")
    }
    if let failure = result.runFailure { parts.append(failure) }
    return parts.joined(separator: "; ")
  }

  /// The last line: `N passed, N failed`.
  static func total(_ results: [TestResult]) -> String {
    let passed = results.count { $0.verdict == .passed }
    return "\(passed) passed, \(results.count - passed) failed\n"
  }

  /// `text`'s lines, each indented by four spaces (empty lines stay empty).
  static func indented(_ text: String) -> String {
    guard !text.isEmpty else { return "" }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    return lines.map { $0.isEmpty ? "\n" : "    \($0)\n" }.joined()
  }
}
