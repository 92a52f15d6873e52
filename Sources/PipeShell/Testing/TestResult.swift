import PipeSession
import PipeSyntax
import TraceFormat

/// One expectation a test ran, as its run recorded it (`--expectations FILE`: a JSON object a line).
struct ExpectationRecord: Equatable, Sendable {
  /// The file the expectation is in, as the test's run named it.
  let file: String
  let line: Int
  let column: Int
  /// The statement's text: `expect … == "…"`.
  let text: String
  let passed: Bool
  /// For a failed one: the first difference, in words.
  let message: String?
  /// For a failed one: expected and actual drawn under one ruler.
  let drawing: String?

  /// The records in `text`, a JSON object a line; or what is wrong with the line that is not one.
  static func parse(_ text: String) -> Result<[ExpectationRecord], TestFiles.Problem> {
    var records: [ExpectationRecord] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
      let bytes = Array(line.utf8)
      var reader = JSONReader(bytes: bytes, at: 0, end: bytes.count)
      let problem = { (what: String) in
        TestFiles.Problem(description: "line \(index + 1) of the test's expectations record: \(what)")
      }
      switch reader.objectLine() {
      case .failure(let diagnostic): return .failure(problem(diagnostic.message))
      case .success(let object):
        guard case .string(let file) = object["file"], case .integer(let line) = object["line"],
          case .integer(let column) = object["column"], case .string(let text) = object["text"],
          case .bool(let passed) = object["passed"]
        else { return .failure(problem("it lacks one of file, line, column, text and passed")) }
        var message: String?
        var drawing: String?
        if case .string(let value) = object["message"] { message = value }
        if case .string(let value) = object["drawing"] { drawing = value }
        records.append(
          ExpectationRecord(
            file: file, line: line, column: column, text: text, passed: passed, message: message, drawing: drawing))
      }
    }
    return .success(records)
  }
}

/// What became of one test file.
struct TestResult: Equatable, Sendable {
  let file: TestFile
  let ending: TestProcess.Ending
  let output: String
  let error: String
  let expectations: [ExpectationRecord]
  /// Something wrong with what the run left behind (its expectations record), which fails the test.
  let problem: String?
  /// How long it ran, in nanoseconds (for the JUnit file only: the report is the same bytes every run).
  let duration: UInt64
  /// The time limit, in seconds, when the test ran past it and was stopped.
  var stoppedAfter: Double? = nil

  var held: Int { expectations.count { $0.passed } }
  var failedExpectations: Int { expectations.count { !$0.passed } }

  /// How the file's test went, beyond its expectations.
  enum Verdict: Equatable {
    case passed
    /// Its expectations, or its run, failed (status 1).
    case failed
    /// It could not run (status 2: a parse or type error, an unreadable file), ended otherwise than
    /// with status 0 or 1, or left no readable record.
    case error
  }

  var verdict: Verdict {
    if problem != nil || stoppedAfter != nil { return .error }
    switch ending {
    case .exited(0): return failedExpectations == 0 ? .passed : .failed
    case .exited(1): return .failed
    case .exited, .signalled, .notStarted: return failedExpectations == 0 ? .error : .failed
    }
  }

  /// Why the run failed, beyond its failed expectations: nil when it ended with status 0, or with
  /// status 1 that its failed expectations explain.
  var runFailure: String? {
    if let problem { return problem }
    if let stoppedAfter {
      let seconds =
        stoppedAfter == stoppedAfter.rounded() && stoppedAfter < 1e15 ? "\(Int(stoppedAfter))" : "\(stoppedAfter)"
      return "stopped after \(seconds) s, the --timeout limit"
    }
    switch ending {
    case .exited(0): return nil
    case .exited(1): return failedExpectations > 0 ? nil : "failed at run time, status 1"
    case .exited(2): return "did not run, status 2"
    case .exited(130): return "interrupted, status 130"
    case .exited(let status): return "exited with status \(status)"
    case .signalled(let signal): return "ended by signal \(signal)"
    case .notStarted(let why): return "did not start: \(why)"
    }
  }
}
