import PipeSyntax

/// `expect P CLAIM`: a pipeline and what it must do, checked before anything runs.
public struct CheckedExpectation: Sendable {
  /// What the pipeline must do, run on a virtual clock of its own.
  public enum Claim: Sendable {
    /// `== "DIAGRAM"`: its output, drawn a column a tick, is the diagram.
    case diagram(MarbleDiagram)
    /// `prints V…`: it passes on these values (as `print` prints them), and finishes.
    case prints([Value])
    /// `fails "MESSAGE"`: it fails with this message.
    case fails(String)
    /// `ends "NODE" "REASON"`: its node labelled NODE ends so (`finished`, `failed`, `cancelled`,
    /// or the reason in the parentheses of `cancelled (downstream finished)`).
    case ends(node: String, reason: String)

    /// The words that start a claim.
    public static let words = ["==", "prints", "fails", "ends"]

    /// The ends `ends "NODE" "REASON"` takes without parentheses: the three states and every
    /// reason a node is cancelled for; `failed (MESSAGE)` and `cancelled (REASON)` besides.
    public static var endReasons: [String] {
      ["finished", "failed", "cancelled"] + CancelReason.allCases.map(\.rawValue)
    }
  }

  public let pipeline: CheckedPipeline
  public let claim: Claim
  /// `in: every order`: the claim must hold in every order `explore` would run, not only in the
  /// virtual clock's own. The index of its `in:` among the command's arguments (where a failure to
  /// check them all points); nil without it.
  public let everyOrderArgument: Int?
  public var everyOrder: Bool { everyOrderArgument != nil }
  /// `tick:`, `until:`, `dialect:`, and `orders:` (with `in: every order`).
  public let options: CommandOptions
  /// The whole statement as written, for reports.
  public let text: String
}

extension Checker {
  /// `expect P CLAIM [tick: D] [until: D]`: the claim's word, its values, then the options.
  mutating func checkExpectation(
    _ pipeline: Pipeline, _ reading: inout CommandReading, options names: [String]
  ) -> CheckedExpectation? {
    let missing =
      "say what you expect after the pipeline: == \"DIAGRAM\", prints V…, fails \"MESSAGE\" or ends \"NODE\" \"REASON\""
    guard let first = reading.arguments.first, let word = CommandReading.word(first),
      CheckedExpectation.Claim.words.contains(word)
    else {
      return reading.fail(
        missing, reading.arguments.first?.range ?? SourceRange(pipeline.range.end, pipeline.range.end))
    }
    let checked = checkTopLevel(pipeline)
    var rest = Array(reading.arguments.dropFirst())
    let everyOrderArgument: Int?
    switch Self.everyOrder(&rest, &reading) {
    case .absent: everyOrderArgument = nil
    // `rest` is the arguments after the claim's word.
    case .written(let index): everyOrderArgument = index + 1
    case .refused: return nil
    }
    let values = rest.filter { $0.label == nil }
    var optionReading = CommandReading(
      signature: reading.signature, arguments: rest.filter { $0.label != nil }, range: reading.range)
    let options = optionReading.options(names, source: source)
    reading.diagnostics += optionReading.diagnostics
    guard let options else { return nil }
    if options.orders != nil, everyOrderArgument == nil,
      let argument = rest.first(where: { $0.label?.name == CommandOptions.ordersLabel })
    {
      return reading.fail(
        "'orders:' bounds the orders of in: every order; write in: every order before it", argument.range)
    }
    let claim: CheckedExpectation.Claim
    switch word {
    case "==":
      guard values.count == 1, let (text, range) = Self.string(values[values.startIndex]) else {
        return reading.fail("== takes one diagram as a string, as in == \"ab-c|\"", values.first?.range ?? first.range)
      }
      let frame = options["tick"] ?? checked?.marbleTick ?? Catalogue.Marble.defaultTick(options.dialect)
      if options.dialect == .rxjs, let at = text.utf8.firstIndex(of: UInt8(ascii: "^")) {
        let offset = range.start + 1 + text.utf8.distance(from: text.utf8.startIndex, to: at)
        return reading.fail(
          "an expected diagram has no subscription point ^: its frame 0 is the pipeline's start",
          SourceRange(offset, offset + 1))
      }
      switch MarbleDiagram.parse(text, dialect: options.dialect, frame: frame) {
      case .success(let diagram):
        let length = diagram.steps.last?.step ?? 0
        guard length <= DiagramRecorder.maximumColumns else {
          return reading.fail(
            "an expected diagram spans at most \(DiagramRecorder.maximumColumns) steps; this one spans \(length)",
            values[values.startIndex].range)
        }
        // Run to just before its second step, "" would claim only that nothing happens at its first;
        // ";" at its first step, cancelled before anything, claims nothing at all.
        let claimsNothing =
          diagram.steps.isEmpty || (diagram.steps.first?.step == 1 && diagram.steps.first?.events.first == .cancel)
        guard !claimsNothing || options[CommandOptions.untilLabel] != nil else {
          return reading.fail(
            "a diagram that is empty, or cancelled at its first step, claims next to nothing: draw each step "
              + "that must stay empty (== \"-----\") or say until when (until: 10)", values[values.startIndex].range)
        }
        claim = .diagram(diagram)
      case .failure(let problem):
        let base = range.start + 1
        report(
          Diagnostic(
            id: .badDiagram, message: "expect: \(problem.message)",
            range: SourceRange(base + problem.offset, base + problem.offset + problem.length), notes: [problem.note]))
        return nil
      }
    case "prints":
      var constants = ConstantChecker()
      var printed: [Value] = []
      let type = checked?.elementType
      for argument in values {
        guard let (value, valueType) = constants.check(argument.value) else {
          if constants.diagnostics.isEmpty { return reading.fail("the values must be constants", argument.range) }
          diagnosticsAppend(constants.diagnostics)
          return nil
        }
        if let type, ValueType.join(type, valueType) == type {
          printed.append(value.converted(to: type))
        } else {
          printed.append(value)
        }
      }
      claim = .prints(printed)
    case "fails":
      guard values.count == 1, let (message, _) = Self.string(values[values.startIndex]) else {
        return reading.fail(
          "fails takes the message as a string, as in fails \"offline\"", values.first?.range ?? first.range)
      }
      claim = .fails(message)
    default:
      guard values.count == 2, let (node, _) = Self.string(values[values.startIndex]),
        let (reason, _) = Self.string(values[values.startIndex + 1])
      else {
        return reading.fail(
          "ends takes a node's label and how it ends, as in ends \"timer 1\" \"downstream finished\"",
          values.first?.range ?? first.range)
      }
      if let refusal = Self.endReasonRefusal(reason, at: values[values.startIndex + 1].range, usage: reading) {
        reading.diagnostics.append(refusal)
        return nil
      }
      claim = .ends(node: node, reason: reason)
    }
    guard let checked else { return nil }
    return CheckedExpectation(
      pipeline: checked, claim: claim, everyOrderArgument: everyOrderArgument, options: options,
      text: source.displayText(of: reading.range))
  }

  /// What an expectation's `in:` said.
  private enum EveryOrderReading {
    /// No `in:`: the claim is checked in the virtual clock's own order.
    case absent
    /// `in: every order`, its `in:` at this index of the arguments read.
    case written(Int)
    /// An `in:` that says anything else: an error was reported at it.
    case refused
  }

  /// Takes `in: every order` out of the arguments, and says where it was.
  private static func everyOrder(
    _ arguments: inout [Argument], _ reading: inout CommandReading
  ) -> EveryOrderReading {
    guard let at = arguments.firstIndex(where: { $0.label?.name == CommandOptions.inLabel }) else { return .absent }
    let next = at + 1 < arguments.count ? arguments[at + 1] : nil
    if case .name("every") = arguments[at].value.kind, let next, CommandReading.word(next) == "order" {
      arguments.removeSubrange(at...(at + 1))
      return .written(at)
    }
    let end = next.flatMap { CommandReading.word($0) != nil ? $0.range.end : nil } ?? arguments[at].range.end
    reading.reject(
      "in: takes every order (the claim holds in every order explore runs), as in prints 1 2 in: every order",
      SourceRange(arguments[at].range.start, end))
    return .refused
  }

  /// The error for a REASON no node can end with (`"finshed"`), with the closest one; nil for one
  /// it can: a word of `endReasons`, `failed (MESSAGE)` or `cancelled (REASON)`.
  private static func endReasonRefusal(
    _ reason: String, at range: SourceRange, usage reading: CommandReading
  )
    -> Diagnostic?
  {
    let known = CheckedExpectation.Claim.endReasons
    if known.contains(reason) { return nil }
    if reason.hasPrefix("failed ("), reason.hasSuffix(")") { return nil }
    let reasons = CancelReason.allCases.map(\.rawValue)
    var suggestion = NameSuggester.note(for: reason, in: known)
    if reason.hasPrefix("cancelled ("), reason.hasSuffix(")") {
      let inner = String(reason.dropFirst("cancelled (".count).dropLast())
      if reasons.contains(inner) { return nil }
      suggestion = NameSuggester.suggestion(for: inner, in: reasons).map { "did you mean 'cancelled (\($0))'?" }
    }
    let list =
      "a node ends finished, failed, failed (MESSAGE), cancelled, or cancelled for one of: "
      + reasons.joined(separator: ", ")
    return Diagnostic(
      id: .badCommand, message: "\(reading.signature.name): a node cannot end '\(reason)'", range: range,
      notes: [suggestion, list].compactMap { $0 })
  }

  /// A plain string argument (no interpolation) and its range.
  private static func string(_ argument: Argument) -> (String, SourceRange)? {
    guard case .string(let parts) = argument.value.kind else { return nil }
    var text = ""
    for part in parts {
      guard case .text(let piece) = part else { return nil }
      text += piece
    }
    return (text, argument.value.range)
  }
}
