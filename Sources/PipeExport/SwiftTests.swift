import PipeSema
import PipeSyntax

/// Whether an expectation says the same (holds, or fails) in every order of what happens at one
/// instant, as pipesh's `explore` runs them: a test on MarbleTesting's clock, whose driver takes
/// orders of its own among the same tasks, holds or fails as pipesh says only then.
public enum OrderVerdict: Sendable, Equatable {
  /// The same in each of the orders, every one of them run.
  case same(orders: Int)
  /// Not the same: `held` of the `orders` run held; `token` is the first order whose verdict is
  /// not the clock's own order's.
  case differs(held: Int, orders: Int, token: String)
  /// More orders than `checked` remain: whether all say the same is not known.
  case unknown(checked: Int)
}

extension SwiftExport {
  /// `pipesh --emit-test FILE`: a Swift Testing file that checks the script's `expect P ==
  /// "DIAGRAM"` and `expect P prints V…` over swift-async-algorithms, on the `TestClock` of the
  /// library product `MarbleTesting`, with the horizon pipesh gives each one. An expectation the
  /// file cannot check (another claim, a pipeline using channels, bindings or pipesh's own timed
  /// operators) is left out with a warning saying why; the script's other statements are not tests.
  /// `verdicts` holds, by the statement's start, what every order says of each expectation
  /// `testable` lists: one whose orders disagree is left out too (MarbleTesting's clock may take
  /// any of them), and `in: every order` is carried over to MarbleTesting's `.everyOrder`.
  public static func tests(
    _ statements: [CheckedStatement], environment: Environment, source: SourceFile, verdicts: [Int: OrderVerdict]
  ) -> Output {
    var support: Set<Support> = []
    var tests: [String] = []
    var warnings: [Diagnostic] = []
    let prefix = functionPrefix(source.name)
    for statement in statements {
      if case .command(let command, let range) = statement, case .validation = command.command.export {
        warnings.append(
          Diagnostic(
            id: .export, severity: .warning,
            message: "left out of the tests: a validate block is swift-async-algorithms' own test form; "
              + "write it with MarbleTesting's MarbleInput and expectMarbles",
            range: range))
      }
      guard case .command(let command, let range) = statement,
        case .expectation(let expectation) = command.command.export
      else { continue }
      switch written(expectation, range: range, environment: environment, source: source, prefix: prefix) {
      case .failure(let problem): warnings.append(problem)
      case .success(let (lines, used)):
        if let refusal = refusal(verdicts[range.start], everyOrder: expectation.everyOrder, range: range) {
          warnings.append(refusal)
          continue
        }
        tests += lines + [""]
        support.formUnion(used)
      }
    }
    let name = source.name.map { String($0.split(separator: "/").last ?? "") } ?? "the script"
    var lines = [
      "// The expectations of \(name) as Swift Testing tests (pipesh --emit-test), over",
      "// swift-async-algorithms on the TestClock of pipesh's MarbleTesting library: depend on the",
      "// products AsyncAlgorithms (1.1.4) and MarbleTesting in the test target.",
      "import AsyncAlgorithms",
      "import MarbleTesting",
      "import Testing",
    ]
    if Support.needsMutex(support) { lines.append("import Synchronization") }
    lines.append("")
    if tests.isEmpty { lines.append("// No expectation of \(name) could be written as a test.") }
    lines += tests.dropLast()
    for definition in Support.definitions(support) { lines += ["", definition] }
    return Output(text: lines.joined(separator: "\n") + "\n", warnings: warnings)
  }

  /// The expectations of `statements` that `tests` can write, with their statements' ranges:
  /// those whose verdict in every order `tests` needs to be told.
  public static func testable(
    _ statements: [CheckedStatement], environment: Environment, source: SourceFile
  ) -> [(range: SourceRange, expectation: CheckedExpectation)] {
    statements.compactMap { statement in
      guard case .command(let command, let range) = statement,
        case .expectation(let expectation) = command.command.export,
        case .success = written(expectation, range: range, environment: environment, source: source, prefix: "")
      else { return nil }
      return (range, expectation)
    }
  }

  /// One expectation's test and the support it uses, or why it cannot be one.
  private static func written(
    _ expectation: CheckedExpectation, range: SourceRange, environment: Environment, source: SourceFile,
    prefix: String
  ) -> Result<([String], Set<Support>), Diagnostic> {
    var writer = SwiftProgramWriter(environment: environment, source: source)
    writer.plainArithmetic = true
    writer.testClock = true
    let location = source.location(of: range.start)
    do {
      let lines = try writer.test(
        expectation, named: prefix + "Line\(location.line)", line: location.line, column: location.column)
      return .success((lines, writer.support))
    } catch {
      return .failure(
        Diagnostic(
          id: .export, severity: .warning, message: "left out of the tests: " + error.message, range: error.range))
    }
  }

  /// Why a test of `expectation` would not hold or fail as pipesh says, from what every order
  /// says of it; nil when every order says the same.
  private static func refusal(
    _ verdict: OrderVerdict?, everyOrder: Bool, range: SourceRange
  ) -> Diagnostic? {
    let message: String
    switch verdict {
    case .same: return nil
    case .differs(let held, let orders, let token) where everyOrder:
      // MarbleTesting runs every order of its own, whose choices are among other tasks (every task
      // of the run): that one of them breaks it too is likely, not known.
      message =
        "it holds in \(held) of the \(orders) orders pipesh runs and fails in the others (order: \(token)); "
        + "MarbleTesting chooses among other tasks, so its orders need not include one that breaks it: a test is "
        + "written only of what every order says alike"
    case .differs(let held, let orders, let token):
      message =
        "it holds in \(held) of the \(orders) orders of what happens at one instant (order: \(token) says "
        + "otherwise than pipesh's clock; explore shows them all), and MarbleTesting's clock may take any of them: "
        + "a test is written only of what every order says alike"
    case .unknown(let checked):
      message =
        "more than \(checked) orders of what happens at one instant: whether every one says the same is not "
        + "known, and MarbleTesting's clock may take any of them"
    case nil:
      message = "pipesh did not run it in every order, so whether a test on another clock would hold is not known"
    }
    return Diagnostic(id: .export, severity: .warning, message: "left out of the tests: " + message, range: range)
  }
}

extension SwiftProgramWriter {
  /// Refuses a diagram MarbleTesting reads otherwise than pipesh: `,` is a value in pipesh's
  /// notation and the consumer's delay-next in AA's; a value with `'` cannot be written in AA's.
  static func checkTestable(_ diagram: MarbleDiagram, _ range: SourceRange) throws(ExportProblem) {
    for event in diagram.steps.flatMap(\.events) {
      guard case .value(let text) = event else { continue }
      if text.contains(",") || text.contains("'") {
        throw ExportProblem(
          message: "the value '\(text)' reads otherwise in MarbleTesting's notation (swift-async-algorithms': "
            + "',' is the consumer's delay-next, and a value cannot hold a quote)",
          range: range)
      }
    }
  }
}

/// The start of a test function's name: the script's base name in lower camel case
/// (`marble-tests.pipe` → `marbleTests`), so the tests of several scripts can share a module.
private func functionPrefix(_ path: String?) -> String {
  let base = path.flatMap { $0.split(separator: "/").last }.map { $0.split(separator: ".").first ?? $0 } ?? ""
  let words = base.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
  guard let first = words.first, first.first?.isLetter == true else { return "script" }
  return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

extension SwiftProgramWriter {
  /// The support that keeps time on `ContinuousClock`: a test on the test's clock cannot use it.
  private static let realTime: [Support: String] = [
    .delay: "delay", .work: "work", .timeout: "timeout", .tap: "tap", .timestamp: "print time:", .diagram: "diagram",
    .lines: "lines", .stdin: "stdin", .timer: "timer", .marble: "marble",
  ]

  /// How many orders a test `in: every order` runs at most: ten times what pipesh ran (`orders:`,
  /// else 1000), at most pipesh's own bound, 100000. Both drivers choose among the sequence's tasks
  /// alone, but the Swift written for pipesh's own operators (a marble input, `flatMap …
  /// concurrency:`) can make other tasks than pipesh's, and so more orders.
  private func everyOrderLimit(_ expectation: CheckedExpectation) -> Int {
    min(10 * (expectation.options.orders ?? CommandOptions.defaultOrders), 100_000)
  }

  /// One `@Test` for an expectation.
  mutating func test(
    _ expectation: CheckedExpectation, named name: String, line: Int, column: Int
  ) throws(ExportProblem) -> [String] {
    let pipeline = expectation.pipeline
    let whole = SourceRange(pipeline.stages.first?.range.start ?? 0, pipeline.stages.last?.range.end ?? 0)
    guard pipeline.hasImplicitSink else {
      throw ExportProblem(message: "a test reads the pipeline's elements: leave its sink out", range: whole)
    }
    var declarations: [String] = []
    let code = try sequence(pipeline, declarations: &declarations)
    if let used = Self.realTime.first(where: { support.contains($0.key) }) {
      throw ExportProblem(
        message: "'\(used.value)' keeps time on ContinuousClock in Swift: MarbleTesting's clock cannot drive it",
        range: whole)
    }
    guard usedChannels.isEmpty, scriptDeclarations.isEmpty else {
      throw ExportProblem(
        message: "a test stands alone: channels, streams, subjects and let bindings are the script's", range: whole)
    }
    let tick = expectation.options["tick"] ?? pipeline.marbleTick ?? Catalogue.Marble.defaultTick(.aa)
    let step = Self.duration(tick)
    let body = declarations + ["return " + code.expression(indent: "      ")]
    var out = [
      "@Test(\(SwiftExpression.stringLiteral("\(line):\(column) " + expectation.text)))",
      "func \(name)() async throws {",
    ]
    // The inputs are made before the run, on a clock of their own (a `TestClock` is the run's time).
    if !testInputs.isEmpty { out += ["  let clock = TestClock()"] + testInputs.map { "  " + $0 } }
    var after: [String] = []
    switch expectation.claim {
    case .diagram(let diagram):
      guard expectation.options.dialect == .aa else {
        throw ExportProblem(message: "MarbleTesting reads swift-async-algorithms' notation, not RxJS's", range: whole)
      }
      // The horizon pipesh gives it: until:, the diagram's `;` (MarbleTesting cancels there), or
      // just before twice its length.
      try Self.checkTestable(diagram, whole)
      let events = diagram.steps.flatMap(\.events)
      if let end = events.firstIndex(where: \.isEnd), end < events.count - 1 {
        throw ExportProblem(
          message: "the diagram claims events after its end, which MarbleTesting leaves out (as AA's diagrams do)",
          range: whole)
      }
      let length = diagram.steps.last?.step ?? 0
      let cancels = diagram.steps.contains { $0.events.contains(.cancel) }
      var horizon = ""
      if let until = expectation.options[CommandOptions.untilLabel] {
        horizon = ", until: \(Self.duration(until))"
      } else if !cancels {
        horizon = ", until: \(Self.duration(tick * max(2 * length, length + 2))) - .nanoseconds(1)"
      }
      // `in: every order`: in each of MarbleTesting's orders, as many as pipesh's `orders:`.
      let orders = expectation.everyOrder ? ", in: .everyOrder(limit: \(everyOrderLimit(expectation)))" : ""
      out.append(
        "  await expectMarbles(\(SwiftExpression.stringLiteral(Self.notation(diagram)))"
          + ", step: \(step)\(horizon)\(orders)) { clock in")
    case .prints(let values):
      guard !SwiftExpression.hasOptional(pipeline.elementType) else {
        throw ExportProblem(message: "MarbleTesting writes an optional as Optional(…), not as print does", range: whole)
      }
      let until = expectation.options[CommandOptions.untilLabel] ?? tick * 60
      let expected = values.map { ".value(\(SwiftExpression.stringLiteral($0.printed)))" } + [".finished"]
      let events = "[\(expected.joined(separator: ", "))]"
      if expectation.everyOrder {
        // Each outcome of every order, and every order run.
        out.append(
          "  let explored = await Marbles.explore(step: \(step), until: \(Self.duration(until)), "
            + "orders: \(everyOrderLimit(expectation))) { clock in")
        after = [
          "  #expect(explored.all, \"more orders than \\(explored.orders)\")",
          "  for outcome in explored.outcomes {",
          "    #expect(outcome.marbles.events.map(\\.event) == \(events), \"order: \\(outcome.token)\")",
          "  }",
        ]
      } else {
        out.append("  let run = await Marbles.record(step: \(step), until: \(Self.duration(until))) { clock in")
        after = ["  #expect(run.events.map(\\.event) == \(events))"]
      }
    case .fails, .ends:
      throw ExportProblem(message: "a test checks == \"DIAGRAM\" and prints V… only", range: whole)
    }
    out += body.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 } }
    out.append("  }")
    out += after
    out.append("}")
    return out
  }
}
