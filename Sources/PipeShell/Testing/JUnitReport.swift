import Markup

/// `pipesh test --junit FILE`: the results as JUnit XML, the format CI systems read. A
/// `<testsuite>` per file, a `<testcase>` per expectation (named by its line:column and text),
/// `<failure message="…">` with the drawing as its text; a file without expectations is one
/// testcase named by its path; a file that failed otherwise (at run time without a failed
/// expectation, or before running) adds a testcase named by its path with a `<failure>` or an
/// `<error>` holding its standard error.
enum JUnitReport {
  static func xml(_ results: [TestResult]) -> String {
    let suites = results.map(suite)
    let tests = suites.reduce(0) { $0 + $1.tests }
    let failures = suites.reduce(0) { $0 + $1.failures }
    let errors = suites.reduce(0) { $0 + $1.errors }
    let time = results.reduce(0) { $0 + $1.duration }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<testsuites name=\"pipesh test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" "
      + "time=\"\(seconds(time))\">\n"
      + suites.map(\.text).joined()
      + "</testsuites>\n"
  }

  private struct Suite {
    var text = ""
    var tests = 0
    var failures = 0
    var errors = 0
  }

  private static func suite(_ result: TestResult) -> Suite {
    let path = result.file.path
    var cases: [String] = []
    var suite = Suite()
    for record in result.expectations {
      // An expectation in another file (one the test loads) is named by that file too.
      let place = record.file == result.file.name ? "" : "\(record.file):"
      let name = "\(place)\(record.line):\(record.column) \(record.text)"
      if record.passed {
        cases.append(testcase(name, path, inside: nil))
      } else {
        suite.failures += 1
        let failure =
          "<failure message=\"\(attribute(record.message ?? "expectation failed"))\">"
          + text(record.drawing ?? "") + "</failure>"
        cases.append(testcase(name, path, inside: failure))
      }
    }
    if let failure = result.runFailure {
      let element = result.verdict == .error && result.failedExpectations == 0 ? "error" : "failure"
      if element == "error" { suite.errors += 1 } else { suite.failures += 1 }
      var detail = result.error
      if case .notStarted(let why) = result.ending { detail += why + "\n" }
      if let problem = result.problem { detail += problem + "\n" }
      cases.append(
        testcase(path, path, inside: "<\(element) message=\"\(attribute(failure))\">\(text(detail))</\(element)>"))
    } else if result.expectations.isEmpty {
      cases.append(testcase(path, path, inside: nil))
    }
    suite.tests = cases.count
    suite.text =
      "  <testsuite name=\"\(attribute(path))\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" "
      + "errors=\"\(suite.errors)\" time=\"\(seconds(result.duration))\">\n"
      + cases.joined()
      + (result.output.isEmpty ? "" : "    <system-out>\(text(result.output))</system-out>\n")
      // A failure of the run holds its standard error already.
      + (result.error.isEmpty || result.runFailure != nil ? "" : "    <system-err>\(text(result.error))</system-err>\n")
      + "  </testsuite>\n"
    return suite
  }

  private static func testcase(_ name: String, _ path: String, inside: String?) -> String {
    let open = "    <testcase name=\"\(attribute(name))\" classname=\"\(attribute(path))\""
    guard let inside else { return open + "/>\n" }
    return open + ">\n      " + inside + "\n    </testcase>\n"
  }

  /// Nanoseconds as seconds with three decimals: `0.042`.
  static func seconds(_ nanoseconds: UInt64) -> String {
    let milliseconds = nanoseconds / 1_000_000
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// `value` as an attribute's text: quotes, line ends and tabs as references (a parser would turn
  /// a raw line end into a space); what XML 1.0 cannot hold replaced by U+FFFD.
  static func attribute(_ value: String) -> String {
    Markup.escaped(value, .xmlAttribute)
  }

  /// `value` as an element's text; what XML 1.0 cannot hold replaced by U+FFFD.
  static func text(_ value: String) -> String {
    Markup.escaped(value, .xmlText)
  }
}
