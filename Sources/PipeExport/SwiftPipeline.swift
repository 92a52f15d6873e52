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

  // MARK: operators

  private mutating func apply(
    _ stage: CheckedStage, to code: inout SequenceCode, declarations: inout [String]
  ) throws(ExportProblem) {
    guard case .operation(let operation) = stage.node else {
      throw problem(stage, "a group in the middle of a pipeline")
    }
    // One closure to an expression: the type checker solves a chain of several closures over
    // literals all at once, and gives up on a long one. The code so far becomes a `let`.
    if let next = Self.stageName(operation.kind) {
      if let name = code.stageName {
        let stageName = fresh(name)
        declare(code, as: stageName, in: &declarations)
        code = SequenceCode(lines: [stageName], throwing: code.throwing)
      }
      code.stageName = next
    }
    typealias Parameters = Catalogue
    switch operation {
    case .map(let expr), .filter(let expr), .compactMap(let expr):
      try append(closure(expr, stage, method: operation.kind.name), to: &code)
    case .takeWhile(let expr):
      let inputThrows = code.throwing
      let predicate = try closure(expr, stage, method: "prefix(while:)")
      append(predicate, to: &code)
      if inputThrows || predicate.1 { code.buildThrows = true }
    case .dropWhile(let expr):
      try append(closure(expr, stage, method: "drop(while:)"), to: &code)
    case .take(let count): code.lines.append(".prefix(\(try value(count, Parameters.Take.count, stage)))")
    case .drop(let count): code.lines.append(".dropFirst(\(try value(count, Parameters.Drop.count, stage)))")
    case .compacted: code.lines.append(".compacted()")
    case .throttle(let interval, let latest):
      let every = try duration(interval, Parameters.Throttle.interval, stage)
      let latestText = try value(latest, Parameters.Throttle.latest, stage)
      code.lines.append("._throttle(for: \(every), clock: \(clockName), latest: \(latestText))")
    case .debounce(let interval):
      code.lines.append(
        ".debounce(for: \(try duration(interval, Parameters.Debounce.interval, stage)), clock: \(clockName))")
    case .removeDuplicates:
      code.lines.append(Self.isEquatable(stage.outputType) ? ".removeDuplicates()" : ".removeDuplicates(by: ==)")
    case .interspersed(let separator):
      code.lines.append(".interspersed(with: \(try value(separator, Parameters.Interspersed.separator, stage)))")
    case .adjacentPairs: code.lines.append(".adjacentPairs()")
    case .reductions(let initial, let next):
      try append(closure(next, initial: initial, stage, method: "reductions"), to: &code)
    case .chunks(let count, let every):
      let size = try value(count, Parameters.Chunks.count, stage)
      if let every {
        let interval = try duration(every, Parameters.Chunks.every, stage)
        code.lines.append(".chunks(ofCount: \(size), or: .repeating(every: \(interval), clock: \(clockName)))")
      } else {
        code.lines.append(".chunks(ofCount: \(size))")
      }
    case .chunked(.every(let interval)):
      let every = try duration(interval, Parameters.Chunked.interval, stage)
      code.lines.append(".chunked(by: .repeating(every: \(every), clock: \(clockName)))")
    case .chunked(.belongTogether(let expr)):
      let (written, throwing) = try closure(expr, stage, method: "chunked(by:)")
      // AA's closure cannot throw: one that can fail here has no Swift of AA's to become.
      guard !throwing else {
        throw problem(
          stage,
          "its closure can fail (overflow, division by zero), and AA's chunked(by:) takes one that cannot: compare without such arithmetic ({ $0 <= $1 })"
        )
      }
      code.lines.append(written)
    case .buffer(let size, let policy):
      code.lines.append(".buffer(policy: \(try bufferPolicy(size, policy, stage)))")
    case .share:
      code.lines.append(".share()")
    case .enumerated:
      use(.enumerated)
      code.lines.append(".enumerated()")
    case .delay(let interval):
      use(.delay)
      code.lines.append(".delayed(by: \(try duration(interval, Parameters.Delay.interval, stage)))")
    case .work(let interval, let cooperative):
      use(.work)
      let every = try duration(interval, Parameters.Work.interval, stage)
      let cooperativeText = try value(cooperative, Parameters.Work.cooperative, stage)
      code.lines.append(
        cooperativeText == "true"
          ? ".working(for: \(every))" : ".working(for: \(every), cooperative: \(cooperativeText))")
    case .timeout(let interval):
      use(.timeout)
      let after = try duration(interval, Parameters.Timeout.interval, stage)
      code.lines.append(".timeout(after: \(after), stage: \(stageLiteral(stage)))")
      code.throwing = true
    case .mapError(let transform):
      // A sequence that cannot fail has no failure to map.
      guard code.throwing else { break }
      let message = transform.parameterNames[0] ?? "message"
      var writer = SwiftExpression(plain: plainArithmetic)
      writer.arguments = [message]
      let text = writer.text(transform)
      support.formUnion(writer.support)
      guard !writer.throwing else { throw problem(stage, "pipesh cannot export a mapError whose closure can fail") }
      use(.errors)
      code.lines.append(
        """
        .mapError { failure -> any Error in
          if failure is CancellationError { return failure }
          let \(message) = (failure as? StageError)?.message ?? "\\(failure)"
          return StageError(stage: \(stageLiteral(stage)), message: \(text))
        }
        """)
    case .tap(let label, let time):
      use(.tap)
      var arguments = [try value(label, Parameters.Tap.label, stage)]
      if !jobPrefix.isEmpty { arguments.append("prefix: \"\(jobPrefix)\"") }
      if case .value(.bool(true), _) = time {
        use(.timestamp)
        arguments.append("since: origin")
      }
      code.lines.append(".tap(\(arguments.joined(separator: ", ")))")
      code.throwing = true
    case .flatMap(let body, _), .flatMapLatest(let body):
      try flatMap(operation, body, stage, to: &code, declarations: &declarations)
    case .spawn(let body):
      // The mistake itself: a Task { } per element that nobody keeps, awaits or cancels.
      try flatMap(operation, body, stage, to: &code, declarations: &declarations)
    case .timer, .range, .from, .marble, .random, .lines, .stdin, .channel, .stream, .subject, .empty, .never, .fail,
      .merge, .zip,
      .combineLatest, .chain, .print, .count, .sum, .min, .max, .first, .last, .collect, .reduce, .drain, .diagram,
      .into:
      throw problem(stage, "'\(operation.kind.name)' cannot follow '|' here")
    }
  }

  /// `let NAME = CODE` among `declarations`, noting whether building it throws.
  mutating func declare(_ code: SequenceCode, as name: String, in declarations: inout [String]) {
    declarations.append(code.binding(name))
    if code.buildThrows { declarationsThrow = true }
  }

  /// The name of a `let` of a sequence ending in an operator with a closure; nil for the others.
  static func stageName(_ kind: OperatorKind) -> String? {
    switch kind {
    case .map: "mapped"
    case .filter: "filtered"
    case .compactMap: "compactMapped"
    case .takeWhile: "prefixed"
    case .dropWhile: "dropped"
    case .reductions: "reduced"
    case .flatMap: "flattened"
    case .flatMapLatest: "latest"
    case .take, .drop, .compacted, .throttle, .debounce, .removeDuplicates, .interspersed, .adjacentPairs, .chunks,
      .chunked, .buffer, .share, .enumerated, .delay, .work, .timeout, .mapError, .tap, .spawn:
      nil
    case .timer, .range, .from, .marble, .random, .lines, .stdin, .channel, .stream, .subject, .empty, .never, .fail,
      .merge, .zip, .combineLatest, .chain, .print, .count, .sum, .min, .max, .first, .last, .collect, .reduce, .drain,
      .diagram, .into:
      nil
    }
  }

  /// Appends an operator written with a closure.
  private func append(_ written: (String, Bool), to code: inout SequenceCode) {
    code.lines.append(written.0)
    code.throwing = code.throwing || written.1
  }

  /// Passes everything on, as a sequence whose `Failure` is `any Error`.
  static let failingAsAnyError = ".map { value async throws in value }"

  private mutating func bufferPolicy(
    _ size: CheckedArgument, _ policy: BufferPolicy, _ stage: CheckedStage
  ) throws(ExportProblem) -> String {
    if case .value(.string(BufferSize.unboundedWord), _) = size { return ".unbounded" }
    let count = try value(
      size, Catalogue.Buffer.size, stage,
      check: ArgumentCheck(stage: stage, variable: Catalogue.Buffer.size.name, call: .checkedSize))
    switch policy {
    case .newest: return ".bufferingLatest(\(count))"
    case .oldest: return ".bufferingOldest(\(count))"
    case .bounded: return ".bounded(\(count))"
    }
  }

  /// `.map { $0 * 2 }`, or with checked arithmetic `.map(checked("map { $0 + 1 }") { try $0.adding(1) })`.
  mutating func closure(
    _ expr: TypedExpr, initial: CheckedArgument? = nil, _ stage: CheckedStage, method: String
  ) throws(ExportProblem) -> (String, Bool) {
    let arity = ["reduce", "reductions", "chunked(by:)"].contains(method) ? 2 : 1
    let used = expr.argumentsUsed
    var writer = SwiftExpression(plain: plainArithmetic)
    var head = ""
    let names = expr.parameterNames
    if !names.isEmpty {
      head = (0..<arity).map { names[$0] ?? "_" }.joined(separator: ", ") + " in "
    } else if arity == 1 && !used.contains(0) {
      head = "_ in "
    } else if arity == 2 && !used.contains(1) {
      writer.arguments = ["partial", "_"]
      head = used.contains(0) ? "partial, _ in " : "_, _ in "
    }
    var body = head + writer.text(expr)
    support.formUnion(writer.support)
    let initial = try initial.map { (argument) throws(ExportProblem) in try value(argument, stage) }
    let plainName = method.hasSuffix(":)") ? String(method.prefix { $0 != "(" }) : method
    let label = method.hasSuffix(":)") ? String(method.drop { $0 != "(" }.dropFirst().dropLast()) : ""
    guard writer.throwing else {
      if let initial { return (".\(plainName)(\(initial)) { \(body) }", false) }
      return (".\(plainName) { \(body) }", false)
    }
    body = head + "try " + body.dropFirst(head.count)
    support.insert(arity == 2 ? .checkedAccumulating : .checked)
    let wrapped = "checked(\(stageLiteral(stage))) { \(body) }"
    if let initial { return (".\(plainName)(\(initial), \(wrapped))", true) }
    return (".\(plainName)(\(label.isEmpty ? "" : label + " ")\(wrapped))", true)
  }
}
