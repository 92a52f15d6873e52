import PipeSema

/// `flatMap { … }` and `flatMapLatest { … }`: the body's pipeline, per element.
extension SwiftProgramWriter {
  /// Appends `.flatMap { element in … }` (or `flatMapLatest`, or `flatMap(concurrency: N)`) to `code`.
  mutating func flatMap(
    _ operation: Operation<Written>, _ body: CheckedPipeline, _ stage: CheckedStage, to code: inout SequenceCode,
    declarations: inout [String]
  ) throws(ExportProblem) {
    typealias Parameters = Catalogue
    var name = operation.kind.name
    var arguments: [String] = []
    if case .flatMap(_, let concurrency?) = operation {
      let limit = try value(concurrency, Parameters.FlatMap.concurrency, stage)
      use(.concurrentFlatMap)
      arguments.append("concurrency: \(limit)")
      name += "(\(arguments.joined()))"
      code.throwing = true
    }
    if operation.kind == .flatMapLatest {
      // AA 1.1.4's own loses failures and can leave the iteration running: pipesh's replacement.
      use(.flatMapLatest)
      name = "flatMapLatestFixed"
    }
    let element = fresh("element")
    let ownLiteral = stageLiteral(stage)
    let longStage = elementName == nil && stage.text.count > 60
    let saved = (
      elementName, deferredThrows, precomputed, checkDeclarations, declarationsThrow, elementType, deferredArithmetic
    )
    elementType = stage.inputType
    // AA's flatMapLatest takes no throwing closure: what can fail is worked out in a map before it.
    let latest = operation.kind == .flatMapLatest
    elementName = latest ? element + ".0" : element
    precomputed = latest ? (element, []) : nil
    deferredThrows = false
    deferredArithmetic = false
    checkDeclarations = []
    declarationsThrow = false
    var inner: [String] = []
    let names = counts
    var bodyCode = try sequence(body, declarations: &inner)
    bodyCode.throwing = bodyCode.throwing || deferredThrows
    let built = latest && (bodyCode.buildThrows || declarationsThrow)
    if built {
      // Building the body can throw, which AA's flatMapLatest's closure cannot: each element's
      // pipeline is built in a map before it, and flatMapLatest takes it as it is.
      (elementName, precomputed, checkDeclarations, inner, counts) = (element, nil, [], [], names)
      bodyCode = try sequence(body, declarations: &inner)
      if bodyCode.throwing { bodyCode.lines.append(Self.failingAsAnyError) }
      let ownStage = ownStage(ownLiteral, stage, long: longStage, in: &declarations)
      code.lines.append(buildingMap(element, checkDeclarations + inner, bodyCode, stage: ownStage))
      code.throwing = true
      bodyCode = SequenceCode(lines: [element], throwing: false)
      (inner, checkDeclarations) = ([], [])
    } else if let (_, values) = precomputed, !values.isEmpty {
      let tuple = "(" + ([element] + values).joined(separator: ", ") + ")"
      let ownStage = ownStage(ownLiteral, stage, long: longStage, in: &declarations)
      if checkDeclarations.isEmpty {
        code.lines.append(".map(checked(\(ownStage)) { \(element) in \(tuple) })")
      } else {
        let statements = (checkDeclarations + ["return " + tuple]).map { "    " + $0 }
        code.lines.append(
          ([".map(", "  checked(\(ownStage)) { \(element) in"] + statements + ["  }", ")"]).joined(separator: "\n"))
      }
      use(.checked)
      code.throwing = true
    } else if latest {
      elementName = element
      precomputed = nil
      inner = []
      checkDeclarations = []
      counts = names
      bodyCode = try sequence(body, declarations: &inner)
    }
    // Checked arguments are worked out first in the body, before what uses them.
    if !latest { inner = checkDeclarations + inner }
    // Checked arithmetic in the body's arguments reports its error against the flatMap, as pipesh.
    let arithmetic = !latest && deferredArithmetic && !plainArithmetic
    (
      elementName, deferredThrows, precomputed, checkDeclarations, declarationsThrow, elementType, deferredArithmetic
    ) = saved
    // AA 1.1.4's flatMapLatest trusts the `Failure` types: an error of a side that says `Never`
    // but can fail (AA's chain says so) is cast to `Never`, a trap. A map that may throw makes
    // either side that can fail an `any Error` one.
    if latest && code.throwing && !built { code.lines.append(Self.failingAsAnyError) }
    if latest && bodyCode.throwing { bodyCode.lines.append(Self.failingAsAnyError) }
    let bodyText = bodyCode.expression(indent: "        ")
    let oneLine = ".\(name) { \(element) in \(bodyText) }"
    if operation.kind == .spawn {
      // `spawn`: the element passes on, its pipeline runs in a task nobody awaits or cancels (what
      // it throws is lost with it).
      guard !arithmetic else {
        throw problem(
          stage, "checked arithmetic in spawn's body has no Swift counterpart yet: write it as Int arithmetic")
      }
      let task = (inner + [bodyCode.introduced(by: "let spawned ="), "for try await _ in spawned {}"])
        .joined(separator: "\n").deeper
      let statements = ["_ = Task {\n  " + task + "\n}", "return \(element)"]
      code.lines.append(".map { \(element) in\n  " + statements.joined(separator: "\n").deeper + "\n}")
      return
    }
    if arithmetic {
      let ownStage = ownStage(ownLiteral, stage, long: longStage, in: &declarations)
      code.lines.append(checkedCall("flatMap", arguments, element, inner, bodyCode, stage: ownStage))
    } else if inner.isEmpty && !bodyText.contains("\n") && oneLine.count <= 80 {
      // One line where it leaves room for the pipeline's indentation (at most 100 columns in all).
      code.lines.append(oneLine)
    } else {
      let statements = inner + [inner.isEmpty ? bodyText : bodyCode.introduced(by: "return")]
      let body = statements.joined(separator: "\n").deeper
      code.lines.append(".\(name) { \(element) in\n  " + body + "\n}")
    }
    // pipesh's flatMapLatest says it can fail (its iterator's next() throws), as AA's chain does.
    code.throwing = code.throwing || bodyCode.throwing || latest
  }

  /// The flatMap's stage as its `checked` names it: `literal`, or where it is `long` a `let` of it
  /// before the pipeline, in parts (a string literal is one token swift-format cannot break).
  private mutating func ownStage(
    _ literal: String, _ stage: CheckedStage, long: Bool, in declarations: inout [String]
  ) -> String {
    guard long else { return literal }
    let name = fresh("stage")
    declarations.append(Self.splitLiteral(name, stage.text).joined(separator: "\n"))
    return name
  }

  /// `.map { element in … }`, with checked arithmetic `.map(checked(STAGE) { element in … })`: the
  /// declarations, then the body returned; on one line where it is one short expression.
  private mutating func buildingMap(
    _ element: String, _ declarations: [String], _ body: SequenceCode, stage: String
  ) -> String {
    guard plainArithmetic else { return checkedCall("map", [], element, declarations, body, stage: stage) }
    let oneLine = ".map { \(element) in \(body.expression()) }"
    if declarations.isEmpty && !oneLine.contains("\n") && oneLine.count <= 80 { return oneLine }
    let statements = declarations + [body.introduced(by: "return")]
    let lines = statements.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
    return ([".map { \(element) in"] + lines.map { $0.isEmpty ? "" : "  " + $0 } + ["}"]).joined(separator: "\n")
  }

  /// `.METHOD(ARGUMENTS, checked(STAGE) { element in … })`: the declarations, then the body
  /// returned (the body alone without them); on one line where it is one short expression. After a long stage, `element in` goes
  /// on a line of its own, as swift-format puts it.
  private mutating func checkedCall(
    _ method: String, _ arguments: [String], _ element: String, _ declarations: [String], _ body: SequenceCode,
    stage: String
  ) -> String {
    use(.checked)
    let call = "checked(\(stage)) {"
    let leading = arguments.map { $0 + ", " }.joined()
    let oneLine = ".\(method)(\(leading)\(call) \(element) in \(body.expression()) })"
    if declarations.isEmpty && !oneLine.contains("\n") && oneLine.count <= 80 { return oneLine }
    let statements = declarations + [declarations.isEmpty ? body.expression() : body.introduced(by: "return")]
    var lines = statements.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.isEmpty ? "" : "    " + $0
    }
    var head = "  \(call) \(element) in"
    if head.count > 60 {
      head = "  " + call
      lines.insert("    \(element) in", at: 0)
    }
    return ([".\(method)("] + arguments.map { "  \($0)," } + [head] + lines + ["  }", ")"]).joined(separator: "\n")
  }
}
