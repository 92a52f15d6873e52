import PipeSema
import PipeSyntax

/// Arguments as Swift: constants written out, and the checks pipesh makes of an argument worked
/// out from a `flatMap` body's element.
extension SwiftProgramWriter {
  func problem(_ stage: CheckedStage, _ message: String) -> ExportProblem {
    ExportProblem(message: message, range: stage.range)
  }

  /// The stage as its errors name it: in a `flatMap` body with the body's element, as pipesh says
  /// it (`"fail \"x\" ($0 = \(element))"`).
  func stageLiteral(_ stage: CheckedStage) -> String {
    let literal = SwiftExpression.stringLiteral(stage.text)
    guard let element = elementName, let type = elementType else { return literal }
    let shown = SwiftExpression.hasOptional(type) ? SwiftExpression.shown(element, type) : element
    let raw = literal.hasPrefix("#")
    let closing = raw ? "\"#" : "\""
    return literal.dropLast(closing.count) + " ($0 = \(raw ? "\\#" : "\\")(\(shown)))" + closing
  }

  /// An argument of `parameter` as Swift: a literal, or worked out from a `flatMap` body's element
  /// and checked as pipesh checks it (`check`, else as the parameter's kind says).
  mutating func value(
    _ argument: CheckedArgument, _ parameter: Parameter, _ stage: CheckedStage, check: ArgumentCheck? = nil
  ) throws(ExportProblem) -> String {
    if case .deferred(let expr) = argument { return deferred(expr, checked: check ?? self.check(parameter, stage)) }
    return try value(argument, stage)
  }

  /// How pipesh checks an argument of `parameter` when `$0` gives it (nil: as the type says).
  private func check(_ parameter: Parameter, _ stage: CheckedStage) -> ArgumentCheck? {
    let shown = parameter.shownName
    let variable = parameter.name
    switch parameter.kind {
    case .count: return ArgumentCheck(stage: stage, variable: variable, call: .checkedCount, name: shown)
    case .positiveCount:
      return ArgumentCheck(stage: stage, variable: variable, call: .checkedCount, name: shown, extra: "least: 1")
    case .duration: return ArgumentCheck(stage: stage, variable: variable, call: .checkedDuration, name: shown)
    case .durationOrZero:
      return ArgumentCheck(stage: stage, variable: variable, call: .checkedDuration, name: shown, extra: "orZero: true")
    case .int, .number, .string, .bool, .value, .closure, .pipeline, .sequence, .name, .typeName: return nil
    }
  }

  mutating func value(_ argument: CheckedArgument, _ stage: CheckedStage) throws(ExportProblem) -> String {
    switch argument {
    case .value(let value, let type): return SwiftExpression.literal(value, type)
    case .duration(let duration): return Self.duration(duration)
    case .deferred(let expr): return deferred(expr)
    default: throw problem(stage, "an argument pipesh cannot export yet")
    }
  }

  /// An argument worked out from a `flatMap` body's element, checked as pipesh checks it: then
  /// declared at the top of the body (or of the map before a `flatMapLatest`), and named here.
  private mutating func deferred(_ expr: TypedExpr, checked check: ArgumentCheck? = nil) -> String {
    if let check, plainChecks {
      // The plain form: the argument as Swift takes it, unchecked (a negative count traps).
      var writer = SwiftExpression(arguments: [elementName ?? "$0"], plain: plainArithmetic)
      let text = writer.text(expr)
      support.formUnion(writer.support)
      return check.helper == .checkedDuration ? ".seconds(\(text))" : text
    }
    if let check {
      let element = precomputed?.element ?? elementName ?? "$0"
      var writer = SwiftExpression(arguments: [element], plain: plainArithmetic)
      let call = check.call(writer.text(expr), element: element)
      support.formUnion(writer.support.union([check.helper]))
      if writer.throwing { deferredArithmetic = true }
      return declareChecked(check.variable, call)
    }
    func written(_ element: String) -> (text: String, throwing: Bool, support: Set<Support>) {
      var writer = SwiftExpression(arguments: [element], plain: plainArithmetic)
      return (writer.text(expr), writer.throwing, writer.support)
    }
    let (text, throwing, used) = written(elementName ?? "$0")
    support.formUnion(used)
    if throwing, let (element, values) = precomputed {
      precomputed = (element, values + ["try " + written(element).text])
      return "\(element).\(values.count + 1)"
    }
    if throwing { (deferredThrows, deferredArithmetic) = (true, true) }
    return throwing ? "try " + text : text
  }

  /// `let NAME = try CALL` at the top of the body (or in the map before a `flatMapLatest`): a check
  /// of arguments worked out from the body's element; the name its value has in the body.
  private mutating func declareChecked(_ variable: String, _ call: String) -> String {
    let name = fresh(variable)
    checkDeclarations.append("let \(name) = try \(call)")
    guard let (element, values) = precomputed else {
      deferredThrows = true
      return name
    }
    precomputed = (element, values + [name])
    return "\(element).\(values.count + 1)"
  }

  /// `random`'s `LO...HI`. Where `$0` gives a bound, checked as pipesh checks it (`checkedRange`):
  /// LO above HI fails the job with pipesh's message, where `ClosedRange` would trap, and the
  /// bounds' `try` stays out of the range (`1...try x` does not parse).
  mutating func randomRange(
    _ low: CheckedArgument, _ high: CheckedArgument, _ stage: CheckedStage
  ) throws(ExportProblem) -> String {
    let deferred = [low, high].contains { if case .deferred = $0 { true } else { false } }
    guard deferred else { return Self.closedRange(try value(low, stage), try value(high, stage)) }
    if plainChecks { return Self.closedRange(try value(low, stage), try value(high, stage)) }
    let element = precomputed?.element ?? elementName ?? "$0"
    var writer = SwiftExpression(arguments: [element], plain: plainArithmetic)
    var bounds: [String] = []
    for bound in [low, high] {
      if case .deferred(let expr) = bound {
        bounds.append(writer.text(expr))
      } else {
        bounds.append(try value(bound, stage))
      }
    }
    support.formUnion(writer.support.union([.checkedRange]))
    if writer.throwing { deferredArithmetic = true }
    let stageText = SwiftExpression.stringLiteral(stage.text)
    return declareChecked("range", "checkedRange(\(bounds.joined(separator: ", ")), in: \(stageText), of: \(element))")
  }

  /// `LO...HI`, a negative HI in parentheses (`1...-1` would read `...-` as one operator).
  static func closedRange(_ low: String, _ high: String) -> String {
    "\(low)...\(high.hasPrefix("-") ? "(\(high))" : high)"
  }

  mutating func values(_ argument: CheckedArgument, _ stage: CheckedStage) throws(ExportProblem) -> String {
    switch argument {
    case .values(let values, let type):
      let list = "[" + values.map { SwiftExpression.literal($0, type) }.joined(separator: ", ") + "]"
      if values.isEmpty || SwiftExpression.hasOptional(type) || (type == .double && values.allSatisfy(\.isInt)) {
        return "(\(list) as [\(SwiftExpression.typeName(type))])"
      }
      return list
    case .deferredValues(let exprs, let type):
      let list = "[" + exprs.map { deferred($0) }.joined(separator: ", ") + "]"
      return SwiftExpression.hasOptional(type) ? "(\(list) as [\(SwiftExpression.typeName(type))])" : list
    default: throw problem(stage, "no values")
    }
  }

  mutating func duration(
    _ argument: CheckedArgument, _ parameter: Parameter, _ stage: CheckedStage
  ) throws(ExportProblem) -> String {
    switch argument {
    case .duration(let duration): return Self.duration(duration)
    case .deferred(let expr): return deferred(expr, checked: check(parameter, stage))
    default: throw problem(stage, "no '\(parameter.name)'")
    }
  }

  /// `.seconds(2)`, `.milliseconds(250)`, `.zero`.
  static func duration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if seconds == 0 && attoseconds == 0 { return ".zero" }
    // Grouped as swift-format wants them (`timer 1e9` is `.seconds(1_000_000_000)`).
    func grouped(_ number: Int64) -> String { SwiftExpression.grouped(Int(number)) }
    if attoseconds == 0 { return ".seconds(\(grouped(seconds)))" }
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(grouped(nanoseconds / 1_000_000)))" }
    if nanoseconds % 1000 == 0 { return ".microseconds(\(grouped(nanoseconds / 1000)))" }
    return ".nanoseconds(\(grouped(nanoseconds)))"
  }

  mutating func marble(
    _ written: CheckedArgument, tick: CheckedArgument, dialect: MarbleDialect, _ stage: CheckedStage
  ) throws(ExportProblem) -> String {
    if testClock { return try testInput(written, tick: tick, dialect: dialect, stage) }
    use(.marble)
    var arguments: [String]
    var diagram = ""
    if dialect == .rxjs {
      // The support reads swift-async-algorithms' notation: an RxJS diagram is written in it, when
      // it can be (events from the first tick on, an end written).
      guard case .marble(let parsed) = written, parsed.neverEnds == false,
        parsed.events.allSatisfy({ $0.step >= 1 })
      else {
        throw problem(
          stage,
          "marble … dialect: rxjs has a Swift counterpart only as a constant diagram with no event at frame 0 and its end written (|, # or !)"
        )
      }
    }
    if case .marble(let parsed) = written {
      diagram = Self.notation(parsed)
      arguments = [SwiftExpression.stringLiteral(diagram)]
    } else {
      arguments = [try value(written, Catalogue.Marble.diagram, stage)]
    }
    // The support's `marble(_:tick:)` ticks as pipesh's does by default.
    var isDefaultTick = false
    if case .duration(Catalogue.Marble.defaultTick) = tick { isDefaultTick = true }
    if !isDefaultTick { arguments.append("tick: \(try duration(tick, Catalogue.Marble.tick, stage))") }
    if diagram.contains("^") || diagram.isEmpty {
      arguments.append("stage: \(stageLiteral(stage))")
    }
    return "marble(\(arguments.joined(separator: ", ")))"
  }

  /// In a test (`pipesh --emit-test`): MarbleTesting's `MarbleInput` of a constant diagram on
  /// the test's clock, declared before the test's sequence (building it can throw).
  private mutating func testInput(
    _ written: CheckedArgument, tick: CheckedArgument, dialect: MarbleDialect, _ stage: CheckedStage
  ) throws(ExportProblem) -> String {
    guard dialect == .aa, case .marble(let parsed) = written else {
      throw problem(stage, "a test's marble must be a constant diagram in swift-async-algorithms' notation")
    }
    try Self.checkTestable(parsed, stage.range)
    // A test's inputs are made once, before the run, on its clock: a marble in a flatMap body
    // would be one input for every element, timed from the run's start, not from the element's.
    guard elementName == nil else {
      throw problem(
        stage,
        "a marble inside flatMap's body starts with each element in pipesh; a test's marble starts "
          + "with the run: write it outside the body")
    }
    let name = fresh("input")
    let step = try duration(tick, Catalogue.Marble.tick, stage)
    testInputs.append(
      "let \(name) = try MarbleInput(\(SwiftExpression.stringLiteral(Self.notation(parsed))), step: \(step), clock: clock)"
    )
    return name
  }

  /// The diagram in marble notation again: `ab-c|`.
  static func notation(_ diagram: MarbleDiagram) -> String {
    var out = ""
    var step = 1
    for events in diagram.steps where !events.events.isEmpty {
      out += String(repeating: "-", count: max(0, events.step - step))
      let symbols = events.events.map(\.notation)
      out += symbols.count == 1 ? symbols[0] : "[" + symbols.joined() + "]"
      step = events.step + 1
    }
    return out
  }

  /// Whether Swift's `==` comes from `Equatable` (tuples have `==` but are not `Equatable`).
  static func isEquatable(_ type: ValueType) -> Bool {
    switch type {
    case .tuple: false
    case .array(let element), .optional(let element): isEquatable(element)
    default: true
    }
  }
}

extension TypedExpr {
  /// The uses of `$0` (0) and `$1` (1) in the expression, with the names a closure gave them
  /// (`x` of `{ x in … }`).
  var argumentUses: [(index: Int, name: String?)] {
    switch kind {
    case .constant: []
    case .argument(let index, let name): [(index, name)]
    case .negate(let a), .not(let a), .tupleMember(let a, _), .count(let a), .isEmpty(let a), .toDouble(let a):
      a.argumentUses
    case .arithmetic(_, let a, let b), .concatenate(let a, let b), .compare(_, let a, let b), .and(let a, let b),
      .or(let a, let b), .element(let a, let b):
      a.argumentUses + b.argumentUses
    case .conditional(let a, let b, let c): a.argumentUses + b.argumentUses + c.argumentUses
    case .joined(let a, let b): a.argumentUses + (b?.argumentUses ?? [])
    case .function(_, let all), .array(let all), .tuple(let all), .interpolation(let all):
      all.flatMap(\.argumentUses)
    }
  }

  /// Which of `$0` (0) and `$1` (1) the expression uses.
  var argumentsUsed: Set<Int> { Set(argumentUses.map(\.index)) }

  /// The names of the closure's named parameters the expression uses, by position.
  var parameterNames: [Int: String] {
    argumentUses.reduce(into: [:]) { names, use in
      if let name = use.name { names[use.index] = name }
    }
  }
}

extension String {
  /// The text with its lines after the first indented two spaces more (empty lines left empty).
  var deeper: String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init).enumerated()
      .map { index, line in index == 0 || line.isEmpty ? line : "  " + line }
      .joined(separator: "\n")
  }
}

extension Value {
  fileprivate var isInt: Bool {
    if case .int = self { return true }
    return false
  }
}

/// A per-element check of an argument, as the exported program makes it: a call of one of the
/// `checked…` functions (see `SwiftSupport`).
struct ArgumentCheck {
  let stage: CheckedStage
  /// The name the checked value gets in the body (the parameter's).
  let variable: String
  /// The helper it calls (`checkedCount`), named as the program includes it.
  let helper: Support
  let arguments: [String]

  /// `checkedCount` or `checkedDuration` with the parameter's name as messages say it;
  /// `checkedSize` and `checkedStep` without.
  init(stage: CheckedStage, variable: String, call helper: Support, name: String? = nil, extra: String? = nil) {
    self.stage = stage
    self.variable = variable
    self.helper = helper
    self.arguments = (name.map { [SwiftExpression.stringLiteral($0)] } ?? []) + (extra.map { [$0] } ?? [])
  }

  /// `checkedCount(EXPR, "COUNT", in: "take $0")`, with `of: ELEMENT` where the argument is not
  /// the element itself.
  func call(_ expression: String, element: String) -> String {
    let all =
      [expression] + arguments + ["in: " + SwiftExpression.stringLiteral(stage.text)]
      + (expression == element ? [] : ["of: " + element])
    return "\(helper.rawValue)(\(all.joined(separator: ", ")))"
  }
}
