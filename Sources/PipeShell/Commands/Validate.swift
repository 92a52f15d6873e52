import MarbleDiagrams
import PipeSema
import PipeSession
import PipeSyntax

extension Commands {
  /// `validate { … }`: swift-async-algorithms' validation form, run and compared as an expectation.
  struct Validate: ShellCommand {
    static let signature = CommandSignature(
      "validate", .validation, usage: "validate { \"IN\"… OPERATION \"OUT\" }",
      summary:
        "swift-async-algorithms' validation form, pasted from its tests and issues as written: input diagrams, the operation in AA's Swift over $0.inputs[N] and $0.clock (or diagram in … diagram.inputs[N]), the expected output, a statement a line or ; between; the operators pipesh has, in AA's spelling (_throttle(for:clock:latest:), debounce(for:clock:), buffer(policy:), chunks(ofCount:) and chunks(ofCount:or:) with a timer or a sequence, chunked(by:) with a timer (.repeating(every:clock:)), a sequence ($0.inputs[N]) or a closure of pipesh's, removeDuplicates(), compacted(), adjacentPairs(), prefix, dropFirst, map, filter and compactMap with a closure of pipesh's or concatCharacters, merge, zip, combineLatest and chain, AsyncTimerSequence(interval:clock:)), any other refused naming what pipesh has; AA's notation as AA reads it ('foo''bar' two values, , moves the consumer's next request a step later, ; cancels it); run on the virtual clock a step a second, AA's test consumer asking at the output's steps; silent when the output matches (pipesh -v says it), else the first difference at its step (AA's own messages count ticks from 0: its at tick 6 is step 7), the lanes drawn, and the script's status is 1"
    )
    static let example = HelpExample(
      """
      validate { "abcdefghijk|"; $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock); "a-c-e-g-i-k|" }
      validate { "a--b--c---|"; $0.inputs[0].map { $0 + "!" }; "'a!'--'b!'--x---|" }
      """)
    let validation: CheckedValidation

    static func check(_ reader: inout CommandReader) -> Self? { reader.validation().map { Self(validation: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .validation }

    func run(in shell: Shell) async {
      await shell.validate(validation)
    }
  }
}

extension Shell {
  /// Runs the block's pipeline as AA's test does and compares what its consumer saw with the
  /// output diagram, as an expectation: silent when it holds (a line with `pipesh -v`); otherwise
  /// an error at the first differing event of the output diagram, the expected and actual lanes
  /// under one ruler, and status 1.
  func validate(_ validation: CheckedValidation) async {
    let run = await engine.validationRun(validation)
    let comparison = Self.validationComparison(validation, run)
    let location = engine.runningCommandLocation
    let text = validation.pipeline.text
    let drawing = comparison.holds ? [] : comparison.drawing()
    expectations.record(
      ExpectationOutcome(
        file: location?.file ?? "", line: location?.line ?? 0, column: location?.column ?? 0, text: text,
        message: comparison.message, drawing: drawing))
    guard let message = comparison.message, let difference = comparison.difference else {
      if expectations.verbose { console.line("ok \(location?.line ?? 0):\(location?.column ?? 0): validate \(text)") }
      return
    }
    // The caret under the expected event of the differing step, else under the step, else at the
    // diagram's closing quote (a step past its end).
    let offset =
      validation.expected.entries.first { $0.step == difference.step && $0.event.isCompared }?.offset
      ?? validation.expected.stepOffsets[difference.step]
    let at = offset.map { validation.outputRange.start + 1 + $0 } ?? (validation.outputRange.end - 1)
    engine.commandFailed(
      Diagnostic(id: .validationFailed, message: "expectation failed: " + message, range: SourceRange(at, at + 1)))
    for line in drawing { console.line(line, to: .error) }
  }

  /// The output diagram against the consumer's answers, as AA's `validate` compares them: a
  /// step's results in order; `;` and `,` are what the test does, not results, and are left out;
  /// any failure matches `^`.
  static func validationComparison(_ validation: CheckedValidation, _ run: ValidationRun) -> MarbleComparison {
    var expected: [(step: Int, event: Marbles.Event)] = []
    for entry in validation.expected.entries {
      switch entry.event {
      case .value(let text): expected.append((entry.step, .value(text)))
      case .finish: expected.append((entry.step, .finished))
      case .failure: expected.append((entry.step, .failed))
      case .cancel, .delayNext: continue
      }
    }
    let actual = run.events.map { answer -> (step: Int, event: Marbles.Event) in
      switch answer.event {
      case .value(let text): (answer.step, .value(text))
      case .finish: (answer.step, .finished)
      case .failure: (answer.step, .failed)
      }
    }
    return MarbleComparison(expected: Marbles(events: expected), actual: Marbles(events: actual), names: .steps)
  }
}

extension ValidationDiagram.Event {
  /// Whether AA compares it with what happened (a value, `|`, `^`), rather than doing it (`;`, `,`).
  var isCompared: Bool {
    switch self {
    case .value, .finish, .failure: true
    case .cancel, .delayNext: false
    }
  }
}

extension DiagnosticID {
  public static let validationFailed = DiagnosticID("validation-failed")
}
