import PipeSema
import PipeSyntax

/// The Swift of each operator, appended to the sequence it reads.
extension SwiftProgramWriter {
  /// Appends the Swift of one operator stage to `code`; a combinator's inputs are bound in `declarations`.
  mutating func apply(
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
    case .chunks(let count, let signal):
      let size = try value(count, Parameters.Chunks.count, stage)
      switch signal {
      case .every(let every):
        let interval = try duration(every, Parameters.Chunks.every, stage)
        code.lines.append(".chunks(ofCount: \(size), or: .repeating(every: \(interval), clock: \(clockName)))")
      case .signal(let pipeline):
        try chunks(by: pipeline, method: "chunks(ofCount: \(size), or: ", to: &code, declarations: &declarations)
      case nil:
        code.lines.append(".chunks(ofCount: \(size))")
      }
    case .chunked(.signal(let pipeline)):
      try chunks(by: pipeline, method: "chunked(by: ", to: &code, declarations: &declarations)
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

extension SwiftProgramWriter {
  /// `.chunked(by: signal)`, `.chunks(ofCount: N, or: signal)`: the signal's pipeline bound to a
  /// name first, as a combinator's inputs are. AA's sequence merges its input with the signal, and
  /// may say it cannot fail where one of them can, as `merge` does (`never | chunked by: (fail "x")`
  /// trapped so, exported without it): it is asked through `Rethrowing` then.
  fileprivate mutating func chunks(
    by signal: CheckedPipeline, method: String, to code: inout SequenceCode, declarations: inout [String]
  ) throws(ExportProblem) {
    let signalCode = try sequence(signal, declarations: &declarations)
    let name = fresh("signal")
    declare(signalCode, as: name, in: &declarations)
    code.lines.append("." + method + name + ")")
    guard code.throwing || signalCode.throwing else { return }
    use(.rethrowing)
    code.lines.append(".rethrowing()")
    code.throwing = true
  }
}
