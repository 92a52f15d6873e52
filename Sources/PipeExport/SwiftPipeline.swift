import PipeSema
import PipeSyntax

/// An async sequence as Swift text: the source on the first line, then one `.operator(…)` a line.
struct SequenceCode {
  var lines: [String]
  /// Whether iterating it can throw, so the loop needs `for try await`.
  var throwing: Bool
  /// Whether building it can throw, so the expression needs `try`: Swift's `prefix(while:)`
  /// rethrows, and throws where its input's iterator or its predicate can.
  var buildThrows = false
  /// The name for a `let` of it, after the last operator with a closure it has (nil: none).
  var stageName: String?

  init(lines: [String], throwing: Bool) {
    self.lines = lines
    self.throwing = throwing
  }

  /// The expression on one line, where it is short enough, or broken before each operator (the
  /// lines after the first indented by two spaces); with `try` in front where building it can throw.
  func expression(indent: String = "") -> String {
    let head = (buildThrows ? "try " : "") + lines[0]
    let flat = head + lines.dropFirst().joined()
    if lines.count == 1 || (flat.count + indent.count <= 80 && !flat.contains("\n")) { return flat }
    return head + lines.dropFirst().map { "\n  " + $0.deeper }.joined()
  }

  /// `let name = expression`.
  func binding(_ name: String) -> String { introduced(by: "let \(name) =") }

  /// The expression after `keyword` (`let name =`, `return`); a name alone before operators goes on
  /// a line of its own, as swift-format puts it.
  func introduced(by keyword: String) -> String {
    let text = expression()
    guard text.contains("\n"), lines[0].allSatisfy({ $0.isLetter || $0.isNumber }) else {
      return "\(keyword) \(text)"
    }
    return "\(keyword)\n  " + text
  }
}

/// What the exporter cannot translate: said at the stage's place.
struct ExportProblem: Error {
  let message: String
  let range: SourceRange
}

extension SwiftProgramWriter {
  /// The Swift for a pipeline without its sink. Combinator inputs are bound to names first (in
  /// `declarations`), so that each line reads as one step.
  mutating func sequence(
    _ pipeline: CheckedPipeline, declarations: inout [String], wanted: ValueType? = nil
  ) throws(ExportProblem) -> SequenceCode {
    let stages = pipeline.stages.filter { $0.role != .sink }
    guard let first = stages.first else {
      throw ExportProblem(message: "an empty pipeline has no Swift counterpart", range: SourceRange(0, 0))
    }
    var code = try source(first, declarations: &declarations, wanted: wanted)
    for stage in stages.dropFirst() {
      try apply(stage, to: &code, declarations: &declarations)
    }
    return code
  }

  // MARK: sources

  private mutating func source(
    _ stage: CheckedStage, declarations: inout [String], wanted: ValueType?
  ) throws(ExportProblem) -> SequenceCode {
    let type = SwiftExpression.typeName(stage.outputType == .never ? (wanted ?? .never) : stage.outputType)
    switch stage.node {
    case .shared(let id):
      return SequenceCode(lines: [try sharedName(id, stage)], throwing: sharedThrowing[id] ?? false)
    case .operation(let operation):
      return try source(operation, stage, type: type, declarations: &declarations)
    }
  }

  private mutating func source(
    _ operation: Operation<Written>, _ stage: CheckedStage, type: String, declarations: inout [String]
  ) throws(ExportProblem) -> SequenceCode {
    typealias Parameters = Catalogue
    switch operation {
    case .timer(let interval):
      let every = try duration(interval, Parameters.Timer.interval, stage)
      if testClock {
        // pipesh's timer on the test's clock: 0, 1, 2, … one per interval, the first after one.
        return SequenceCode(
          lines: ["AsyncTimerSequence(interval: \(every), clock: clock)", ".reductions(-1) { count, _ in count + 1 }"],
          throwing: false)
      }
      use(.timer)
      return SequenceCode(lines: ["timer(every: \(every))"], throwing: false)
    case .range(let from, let through, let by):
      let (low, high) = (
        try value(from, Parameters.RangeSource.from, stage), try value(through, Parameters.RangeSource.through, stage)
      )
      if case .value(.int(1), _) = by, case .value(.int(let first), _) = from, case .value(.int(let last), _) = through,
        first <= last
      {
        return SequenceCode(lines: ["(\(Self.closedRange(low, high))).async"], throwing: false)
      }
      let step = try value(
        by, Parameters.RangeSource.by, stage,
        check: ArgumentCheck(stage: stage, variable: Parameters.RangeSource.by.name, call: .checkedStep))
      return SequenceCode(lines: ["stride(from: \(low), through: \(high), by: \(step)).async"], throwing: false)
    case .from(let values):
      return SequenceCode(lines: [try self.values(values, stage) + ".async"], throwing: false)
    case .marble(let diagram, let tick, let dialect):
      return SequenceCode(lines: [try marble(diagram, tick: tick, dialect: dialect, stage)], throwing: true)
    case .random(let low, let high, let count, let seed):
      use(.random)
      let limit = try count.map { (argument) throws(ExportProblem) in
        try value(argument, Parameters.Random.count, stage)
      }
      let start = try seed.map { (argument) throws(ExportProblem) in try value(argument, Parameters.Random.seed, stage)
      }
      // After the count, as pipesh checks them.
      let range = try randomRange(low, high, stage)
      let arguments = ["range: \(range)", "count: \(limit ?? "nil")", "seed: \(start ?? "nil")"]
      return SequenceCode(lines: ["RandomIntegers(\(arguments.joined(separator: ", ")))"], throwing: false)
    case .lines(let file):
      use(.lines)
      let path = try value(file, Parameters.Lines.file, stage)
      return SequenceCode(
        lines: ["lines(ofFile: \(path), stage: \(stageLiteral(stage)))"], throwing: true)
    case .stdin:
      use(.stdin)
      return SequenceCode(lines: ["standardInputLines()"], throwing: false)
    case .channel(let channel):
      if failingChannels.contains(channel) { readsFailingChannel = true }
      return SequenceCode(lines: [useChannel(channel)], throwing: failingChannels.contains(channel))
    case .stream(let stream, _):
      return SequenceCode(lines: [useChannel(stream)], throwing: false)
    case .subject(let subject, _):
      use(.currentValue)
      return SequenceCode(lines: ["await \(useChannel(subject)).values()"], throwing: false)
    case .empty:
      return SequenceCode(lines: ["[\(type)]().async"], throwing: false)
    case .never:
      use(.never)
      return SequenceCode(lines: ["neverEnding(of: \(type).self)"], throwing: false)
    case .fail(let message):
      use(.failed)
      use(.errors)
      let text = try value(message, Parameters.Fail.message, stage)
      let error = "StageError(stage: \(stageLiteral(stage)), message: \(text))"
      return SequenceCode(lines: ["failed(as: \(type).self, \(error))"], throwing: true)
    case .merge, .chain:
      return try combinator(operation.kind.name, converting: true, stage, declarations: &declarations)
    case .zip, .combineLatest:
      return try combinator(operation.kind.name, converting: false, stage, declarations: &declarations)
    case .map, .filter, .compactMap, .take, .drop, .takeWhile, .dropWhile, .compacted, .throttle, .debounce,
      .removeDuplicates, .interspersed, .adjacentPairs, .reductions, .chunks, .chunked, .buffer, .share, .enumerated,
      .delay, .work, .timeout, .mapError, .tap, .flatMap, .flatMapLatest, .spawn, .print, .count, .sum, .min, .max,
      .first, .last, .collect, .reduce, .drain, .diagram, .into:
      throw problem(stage, "'\(operation.kind.name)' does not start a pipeline")
    }
  }

  /// `merge(a, b, c)`: each input named first; beyond three, nested as pipesh nests them.
  private mutating func combinator(
    _ name: String, converting: Bool, _ stage: CheckedStage, declarations: inout [String]
  ) throws(ExportProblem) -> SequenceCode {
    var names: [String] = []
    var throwing = false
    for input in stage.inputs {
      var code = try sequence(input, declarations: &declarations, wanted: stage.outputType)
      if converting { try convert(&code, from: input.elementType, to: stage.outputType, stage) }
      let inputName = fresh("input")
      declare(code, as: inputName, in: &declarations)
      names.append(inputName)
      throwing = throwing || code.throwing
    }
    func nested(_ names: ArraySlice<String>) -> String {
      if names.count <= 3 { return "\(name)(\(names.joined(separator: ", ")))" }
      return "\(name)(\(names.prefix(2).joined(separator: ", ")), \(nested(names.dropFirst(2))))"
    }
    guard throwing else { return SequenceCode(lines: [nested(names[...])], throwing: false) }
    // AA's combinators say they cannot fail where an input can (see Support/Rethrowing.swift).
    use(.rethrowing)
    return SequenceCode(lines: [nested(names[...]), ".rethrowing()"], throwing: true)
  }

  /// Makes `code`'s elements of type `to` where pipesh joined the inputs' types (`Int` into `Double`).
  private func convert(
    _ code: inout SequenceCode, from: ValueType, to: ValueType, _ stage: CheckedStage
  ) throws(ExportProblem) {
    guard from != to, from != .never else { return }
    switch (from, to) {
    case (.int, .double): code.lines.append(".map { Double($0) }")
    case (let wrapped, .optional(let target)) where wrapped == target:
      code.lines.append(".map { Optional($0) }")
    case (.int, .optional(.double)): code.lines.append(".map { Optional(Double($0)) }")
    default: throw problem(stage, "pipesh cannot export a join of \(from) into \(to) yet")
    }
  }
}
