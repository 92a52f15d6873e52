import PipeSema

/// `flatMap { … }` and `flatMapLatest { … }`: the body's pipeline, per element.
extension SwiftProgramWriter {
  /// Appends `.flatMap { element in … }` (or `flatMapLatest`, or `flatMap(concurrency: N)`) to `code`.
  mutating func flatMap(
    _ operation: Operation<Written>, _ body: CheckedPipeline, _ stage: CheckedStage, to code: inout SequenceCode
  ) throws(ExportProblem) {
    typealias Parameters = Catalogue
    var name = operation.kind.name
    if case .flatMap(_, let concurrency?) = operation {
      use(.concurrentFlatMap)
      name += "(concurrency: \(try value(concurrency, Parameters.FlatMap.concurrency, stage)))"
      code.throwing = true
    }
    let element = fresh("element")
    let ownStage = stageLiteral(stage)
    let saved = (elementName, deferredThrows, precomputed, checkDeclarations, declarationsThrow, elementType)
    elementType = stage.inputType
    // AA's flatMapLatest takes no throwing closure: what can fail is worked out in a map before it.
    let latest = operation.kind == .flatMapLatest
    elementName = latest ? element + ".0" : element
    precomputed = latest ? (element, []) : nil
    deferredThrows = false
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
      code.lines.append(buildingMap(element, checkDeclarations + inner, bodyCode, stage: ownStage))
      code.throwing = true
      bodyCode = SequenceCode(lines: [element], throwing: false)
      (inner, checkDeclarations) = ([], [])
    } else if let (_, values) = precomputed, !values.isEmpty {
      let tuple = "(" + ([element] + values).joined(separator: ", ") + ")"
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
    (elementName, deferredThrows, precomputed, checkDeclarations, declarationsThrow, elementType) = saved
    // AA 1.1.4's flatMapLatest trusts the `Failure` types: an error of a side that says `Never`
    // but can fail (AA's chain says so) is cast to `Never`, a trap. A map that may throw makes
    // either side that can fail an `any Error` one.
    if latest && code.throwing && !built { code.lines.append(Self.failingAsAnyError) }
    if latest && bodyCode.throwing { bodyCode.lines.append(Self.failingAsAnyError) }
    let bodyText = bodyCode.expression(indent: "        ")
    let oneLine = ".\(name) { \(element) in \(bodyText) }"
    // One line where it leaves room for the pipeline's indentation (at most 100 columns in all).
    if inner.isEmpty && !bodyText.contains("\n") && oneLine.count <= 80 {
      code.lines.append(oneLine)
    } else {
      let statements = inner + [inner.isEmpty ? bodyText : bodyCode.introduced(by: "return")]
      let body = statements.joined(separator: "\n").deeper
      code.lines.append(".\(name) { \(element) in\n  " + body + "\n}")
    }
    code.throwing = code.throwing || bodyCode.throwing
  }

  /// `.map { element in … }`, with checked arithmetic `.map(checked(STAGE) { element in … })`: the
  /// declarations, then the body returned; on one line where it is one short expression. After a
  /// long stage, `element in` goes on a line of its own, as swift-format puts it.
  private mutating func buildingMap(
    _ element: String, _ declarations: [String], _ body: SequenceCode, stage: String
  ) -> String {
    let checking = !plainArithmetic
    if checking { use(.checked) }
    let call = checking ? "checked(\(stage)) {" : "{"
    let expression = body.expression()
    let oneLine = ".map\(checking ? "(" : " ")\(call) \(element) in \(expression)" + (checking ? " })" : " }")
    if declarations.isEmpty && !oneLine.contains("\n") && oneLine.count <= 80 { return oneLine }
    let statements = declarations + [body.introduced(by: "return")]
    let indent = checking ? "    " : "  "
    var lines = statements.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.isEmpty ? "" : indent + $0
    }
    guard checking else { return ([".map { \(element) in"] + lines + ["}"]).joined(separator: "\n") }
    var head = "  \(call) \(element) in"
    if head.count > 60 {
      head = "  " + call
      lines.insert("    \(element) in", at: 0)
    }
    return ([".map(", head] + lines + ["  }", ")"]).joined(separator: "\n")
  }
}
