import PipeSyntax

/// `validate { … }`, checked: the operation as a pipesh pipeline over `marble` sources, the expected
/// output read AA's way, and how AA's test consumer asks and is cancelled.
public struct CheckedValidation: Sendable {
  public let pipeline: CheckedPipeline
  public let expected: ValidationDiagram
  /// The output diagram's literal, quotes included: a failure points there.
  public let outputRange: SourceRange
  /// The expected output as written, between the quotes.
  public let outputText: String
  /// When the consumer asks for each element, in steps (AA's `activeTicks`); one more request
  /// follows, past the end.
  public let requests: [Int]
  /// When the consumer is cancelled (`;`), in steps.
  public let cancelSteps: [Int]
  /// AA runs the test to twice the last step any diagram names; nil: no diagram has an event
  /// (AA passes such a test without running it).
  public let end: Int?
  /// The length of one step.
  public let tick: Duration
}

/// The operators `validate` translates, in AA's spelling, and what each becomes in pipesh.
public enum ValidationOperators {
  /// One step of a validation diagram on pipesh's clock: a second, so that `draw` of the same
  /// pipeline shows a column a step.
  public static let tick = Duration.seconds(1)

  /// AA's methods and functions `validate` reads, as AA spells them, with pipesh's counterpart.
  public static let known: [(aa: String, pipesh: String)] = [
    ("_throttle(for:clock:latest:)", "throttle"), ("debounce(for:clock:)", "debounce"),
    ("buffer(policy:)", "buffer"), ("chunks(ofCount:)", "chunks"),
    ("chunks(ofCount:or: .repeating(…))", "chunks … every:"),
    ("chunks(ofCount:or:) with a sequence", "chunks … or: (…)"),
    ("chunked(by: .repeating(every:clock:))", "chunked"), ("chunked(by:) with a closure", "chunked { … }"),
    ("chunked(by:) with a sequence", "chunked by: (…)"),
    ("removeDuplicates()", "removeDuplicates"),
    ("compacted()", "compacted"), ("adjacentPairs()", "adjacentPairs"), ("prefix(_:)", "take"),
    ("dropFirst(_:)", "drop"), ("prefix(while:)", "takeWhile"), ("drop(while:)", "dropWhile"),
    ("map", "map"), ("filter", "filter"), ("compactMap", "compactMap"), ("interspersed(with:)", "interspersed"),
    ("merge(_:_:[_:])", "merge(…)"), ("zip(_:_:[_:])", "zip(…)"), ("combineLatest(_:_:[_:])", "combineLatest(…)"),
    ("chain(_:_:[_:])", "chain(…)"), ("AsyncTimerSequence(interval:clock:)", "timer"),
  ]

  static var list: String { known.map(\.aa).joined(separator: ", ") }

  static let methodNames = [
    "_throttle", "debounce", "buffer", "chunks", "chunked", "removeDuplicates", "compacted",
    "adjacentPairs", "prefix", "dropFirst", "drop", "map", "filter", "compactMap", "interspersed",
  ]
  static let functionNames = ["merge", "zip", "combineLatest", "chain", "AsyncTimerSequence"]
}

extension Checker {
  /// `validate { … }`: reads the block, translates AA's operation into a pipeline and checks it.
  mutating func checkValidation(_ arguments: [Argument], _ range: SourceRange) -> CheckedValidation? {
    guard let first = arguments.first, case .verbatim = first.value.kind else {
      report(
        ValidationMessages.shape(
          "expected a block: validate { \"INPUT\" ⏎ $0.inputs[0].OPERATOR ⏎ \"OUTPUT\" }",
          arguments.first?.range ?? range
        ))
      return nil
    }
    if let extra = arguments.dropFirst().first {
      report(ValidationMessages.shape("nothing may follow the block", extra.range))
      return nil
    }
    let block: ValidationBlock
    switch ValidationBlock.parse(source, block: first.value.range) {
    case .success(let parsed): block = parsed
    case .failure(let diagnostic):
      report(diagnostic)
      return nil
    }
    var inputs: [(diagram: ValidationDiagram, text: String, written: ValidationBlock.Diagram)] = []
    for input in block.inputs {
      guard let diagram = readDiagram(input) else { return nil }
      switch diagram.marbleText {
      case .success(let text): inputs.append((diagram, text, input))
      case .failure(let entry):
        let what = entry.event == ValidationDiagram.Event.cancel ? "';' (cancel)" : "',' (delay next)"
        let at = input.textStart + entry.offset
        report(
          Diagnostic(
            id: .validationDiagram, message: "validate: \(what) belongs in the output diagram, not an input's",
            range: SourceRange(at, at + 1),
            notes: ["it paces or cancels the consumer; AA's inputs trap on it"]))
        return nil
      }
    }
    guard let expected = readDiagram(block.output) else { return nil }
    var translation = ValidationTranslation(
      source: source, grammar: environment.grammar, parameter: block.parameter?.name ?? "$0",
      inputs: inputs.map { ($0.text, $0.written.range) })
    guard let pipeline = translation.sequence(block.operation) else {
      if let problem = translation.problem { report(problem) }
      return nil
    }
    guard let checked = checkTopLevel(pipeline) else { return nil }
    guard checked.elementType == .string else {
      report(
        Diagnostic(
          id: .validationOperator,
          message: "validate: the operation's elements are \(checked.elementType), and AA's diagrams compare strings",
          range: block.operation.range,
          notes: ["end it with a map to String, as AA's tests do: .map(concatCharacters) for an array of strings"]))
      return nil
    }
    let ends = inputs.compactMap(\.diagram.lastStep) + [expected.lastStep].compactMap { $0 }
    return CheckedValidation(
      pipeline: checked, expected: expected, outputRange: block.output.range, outputText: block.output.text,
      requests: expected.requests, cancelSteps: expected.cancelSteps, end: ends.max(),
      tick: ValidationOperators.tick)
  }

  private mutating func readDiagram(_ diagram: ValidationBlock.Diagram) -> ValidationDiagram? {
    switch ValidationDiagram.parse(diagram.text) {
    case .success(let parsed): return parsed
    case .failure(let problem):
      let at = diagram.textStart + problem.offset
      report(
        Diagnostic(
          id: .validationDiagram, message: "validate: \(problem.message)", range: SourceRange(at, at + problem.length),
          notes: [problem.note]))
      return nil
    }
  }
}
