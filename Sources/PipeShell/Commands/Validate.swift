import PipeSema
import PipeSession
import PipeSyntax

extension Commands {
  /// `validate { … }`: swift-async-algorithms' validation form, run and compared.
  enum Validate {
    static let entry = Command.validation(.validate) { shell, validation in
      await shell.validate(validation)
    }.example(
      """
      validate { "abcdefghijk|"; $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock); "a-c-e-g-i-k|" }
      validate { "a--b--c---|"; $0.inputs[0].map { $0 + "!" }; "'a!'--'b!'--x---|" }
      """)
  }
}

extension Shell {
  /// Runs the block's pipeline as AA's test does; silent when the output matches, else the first
  /// difference under the output diagram and the expected and actual lanes aligned step by step.
  func validate(_ validation: CheckedValidation) async {
    let run = await engine.validationRun(validation)
    let differences = run.differences(from: validation.expected)
    guard let first = differences.first else { return }
    let at = first.offset.map { validation.outputRange.start + 1 + $0 } ?? validation.outputRange.start
    let more = differences.count > 1 ? " (and \(differences.count - 1) more)" : ""
    engine.commandFailed(
      Diagnostic(
        id: .validationFailed, message: "validate: \(first.words)\(more)", range: SourceRange(at, at + 1)))
    for line in Self.validationLanes(validation.expected, run, marking: first.step) {
      console.line(line, to: .error)
    }
  }

  /// The expected and the actual output, a column per step as wide as the wider of the two (AA
  /// ignores the spaces that pad it), the first difference marked under them.
  static func validationLanes(_ expected: ValidationDiagram, _ run: ValidationRun, marking step: Int) -> [String] {
    var wanted: [Int: [String]] = [:]
    for entry in expected.entries {
      let token =
        switch entry.event {
        case .value(let text): text.count == 1 && !"-^|;,'[] ".contains(text) ? text : "'\(text)'"
        case .failure: "^"
        case .finish: "|"
        case .cancel: ";"
        case .delayNext: ","
        }
      wanted[entry.step, default: []].append(token)
    }
    var seen: [Int: [String]] = [:]
    for (at, event) in run.events {
      let token =
        switch event {
        case .value(let text): text.count == 1 && !"-^|;,'[] ".contains(text) ? text : "'\(text)'"
        case .finish: "|"
        case .failure: "^"
        }
      seen[at, default: []].append(token)
    }
    func cell(_ tokens: [String]?) -> String {
      guard let tokens, !tokens.isEmpty else { return "-" }
      return tokens.count == 1 ? tokens[0] : "[" + tokens.joined() + "]"
    }
    let last = max(wanted.keys.max() ?? 0, seen.keys.max() ?? 0, step)
    var (expectedLine, actualLine, marks) = ("expected  ", "actual    ", "          ")
    for column in stride(from: 1, through: last, by: 1) {
      let (left, right) = (cell(wanted[column]), cell(seen[column]))
      let width = max(left.count, right.count)
      expectedLine += left + String(repeating: " ", count: width - left.count)
      actualLine += right + String(repeating: " ", count: width - right.count)
      marks += String(repeating: column == step ? "^" : " ", count: column == step ? 1 : width)
      if column == step { marks += String(repeating: " ", count: width - 1) }
    }
    while marks.last == " " { marks.removeLast() }
    return [expectedLine, actualLine, marks + " step \(step)"]
  }
}

extension DiagnosticID {
  public static let validationFailed = DiagnosticID("validation-failed")
}
