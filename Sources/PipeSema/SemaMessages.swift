import PipeSyntax

extension DiagnosticID {
  public static let unknownChannel = DiagnosticID("unknown-channel")
  public static let tooManyStages = DiagnosticID("too-many-stages")
  public static let fragmentsTooDeep = DiagnosticID("fragments-too-deep")
  public static let typeTooDeep = DiagnosticID("type-too-deep")
  public static let unknownOperator = DiagnosticID("unknown-operator")
  /// A name nothing defines: in a closure, or after `help`.
  public static let unknownName = DiagnosticID("unknown-name")
  public static let unknownFunction = DiagnosticID("unknown-function")
  public static let typeMismatch = DiagnosticID("type-mismatch")
  public static let badArguments = DiagnosticID("bad-arguments")
  public static let badArgument = DiagnosticID("bad-argument")
  /// A checked stage pipesh cannot build: a bug of pipesh's.
  public static let `internal` = DiagnosticID("internal")
  public static let misplacedStage = DiagnosticID("misplaced-stage")
  /// The element type of a channel nothing has fixed yet: the checker checks the script again with
  /// the types later statements fixed.
  public static let channelTypeUnknown = DiagnosticID("channel-type-unknown")
  public static let badCommand = DiagnosticID("bad-command")
  public static let reservedName = DiagnosticID("reserved-name")
  /// A `marble` diagram that does not parse.
  public static let badDiagram = DiagnosticID("bad-diagram")
}

/// The checker's diagnostics, one static factory each, with a stable id.
enum SemaMessages {
  static func unknownChannel(_ name: String, _ range: SourceRange, known: some Sequence<String>) -> Diagnostic {
    let note =
      NameSuggester.suggestion(for: name, in: known).map { "did you mean '\($0)'?" }
      ?? "a channel is made by 'channel NAME of: TYPE', 'into NAME' or 'send NAME …'"
    return Diagnostic(id: .unknownChannel, message: "no channel '\(name)'", range: range, notes: [note])
  }

  static func tooManyStages(_ count: Int, _ range: SourceRange) -> Diagnostic {
    let shown = count >= Checker.maximumStages * 1000 ? "more than \(Checker.maximumStages * 1000)" : "\(count)"
    return Diagnostic(
      id: .tooManyStages,
      message: "this expands to \(shown) stages, and a statement may have at most \(Checker.maximumStages)",
      range: range,
      notes: ["each use of a fragment adds all its stages: a fragment used twice in the next one doubles them"])
  }

  static func fragmentsTooDeep(_ depth: Int, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .fragmentsTooDeep,
      message:
        "this uses fragments \(depth) deep (a fragment that uses a fragment that uses …), and pipesh allows at most \(Checker.maximumFragmentDepth)",
      range: range, notes: ["write the innermost fragments out in the one that uses them"])
  }

  static func pipelinesTooDeep(_ levels: Int, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .nestingTooDeep,
      message: "this nests pipelines \(levels) levels deep, counting those inside the fragments it uses",
      range: range,
      notes: [
        "groups, combinators' inputs and flatMap bodies nest at most \(Checker.maximumLevels) levels, fragments included: "
          + "nest fewer fragments within each other, or write the pipeline with fewer levels"
      ])
  }

  static func typeTooDeep(_ type: ValueType, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .typeTooDeep,
      message:
        "the elements here nest \(type.depth) levels deep (tuples, arrays, optionals), and pipesh allows at most \(Checker.maximumTypeDepth)",
      range: range)
  }

  static func unknownOperator(_ name: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .unknownOperator, message: "unknown operator '\(name)'", range: range)
  }

  static func notAValue(_ found: String, _ stage: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .badArgument, message: "\(stage) takes values written out, and \(found) is not one", range: range,
      notes: [
        "write values such as 1 \"a\" true; to apply an operator, put it after '|', as in '\(stage) 1 2 | map { $0 * 2 }'"
      ])
  }

  static func unknownName(_ name: String, _ range: SourceRange, parameters: [String] = []) -> Diagnostic {
    let arguments = parameters.isEmpty ? "$0 (and $1)" : parameters.map { "'\($0)'" }.joined(separator: " and ")
    return Diagnostic(
      id: .unknownName, message: "unknown name '\(name)' in closure", range: range,
      notes: ["closures see \(arguments), literals, and the functions str, int, double, abs, min, max"])
  }

  static func dollarWithNamedParameters(_ index: Int, _ parameters: [String], _ range: SourceRange) -> Diagnostic {
    let name = index < parameters.count ? parameters[index] : parameters.joined(separator: ", ")
    return Diagnostic(
      id: .badClosure, message: "'$\(index)' cannot be used in a closure with named parameters", range: range,
      notes: ["write '\(name)', or drop '\(parameters.joined(separator: ", ")) in' and use $0 (as Swift requires)"])
  }

  static func duplicateClosureParameter(_ name: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .badClosure, message: "the closure names '\(name)' twice", range: range,
      notes: ["give each parameter its own name, as in { acc, x in acc + x }"])
  }

  static func closureParameterCount(_ names: [Identifier], expected: Int, _ range: SourceRange) -> Diagnostic {
    let gets =
      switch expected {
      case 1: "this closure gets one argument (the element), so it names one: { x in … }"
      default: "this closure gets \(expected) arguments (the result so far, then the element): { acc, x in … }"
      }
    return Diagnostic(
      id: .badClosure,
      message:
        "the closure names \(names.count == 1 ? "one parameter" : "\(names.count) parameters"), but it gets \(expected)",
      range: range, notes: [gets])
  }

  static func unknownFunction(_ name: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .unknownFunction, message: "unknown function '\(name)'", range: range)
  }

  static func notCallable(_ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .badClosure, message: "this cannot be called", range: range)
  }

  static func nestedClosure(_ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .badClosure, message: "a closure cannot stand here", range: range)
  }

  static func elementOutsideBody(_ range: SourceRange, operators: [String]) -> Diagnostic {
    let bodies = operators.map { "\($0) { … }" }.joined(separator: " or ")
    // `spawn` is a mistake staged on purpose: not advice.
    let advised = operators.filter { $0 != OperatorKind.spawn.name }.map { "\($0) { … }" }.joined(separator: " or ")
    return Diagnostic(
      id: .badClosure, message: "'$0' stands for an element only in a closure or in the body of \(bodies)",
      range: range, notes: ["write a constant here, as in 'take 3', or put the pipeline in \(advised)"])
  }

  static func noSuchClosureArgument(_ index: Int, count: Int, _ range: SourceRange) -> Diagnostic {
    let has =
      switch count {
      case 0: "this closure takes no arguments"
      case 1: "this closure gets one argument, $0"
      default: "this closure gets $0 and $1"
      }
    return Diagnostic(id: .badClosure, message: "'$\(index)' is not available here", range: range, notes: [has])
  }

  static func operatorMismatch(
    _ op: String, _ left: ValueType, _ right: ValueType?, _ range: SourceRange
  )
    -> Diagnostic
  {
    let operands = right.map { "'\(left)' and '\($0)'" } ?? "'\(left)'"
    return Diagnostic(
      id: .typeMismatch, message: "operator '\(op)' cannot be applied to \(operands)", range: range,
      notes: right.map { _ in ["convert one side with int(…), double(…) or str(…)"] } ?? [])
  }

  static func notBool(_ what: String, _ type: ValueType, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .typeMismatch, message: "\(what) must be Bool, but it is '\(type)'", range: range,
      notes: ["compare it, as in { $0 > 0 }"])
  }

  static func branchMismatch(_ yes: ValueType, _ no: ValueType, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .typeMismatch, message: "the branches of '? :' have different types '\(yes)' and '\(no)'", range: range)
  }

  static func noTupleMember(_ index: Int, of type: ValueType, _ range: SourceRange) -> Diagnostic {
    let note: String =
      if case .tuple(let members) = type {
        "'\(type)' has members .0 to .\(members.count - 1)"
      } else {
        "only tuples have members .0, .1, …"
      }
    return Diagnostic(
      id: .typeMismatch, message: "value of type '\(type)' has no member '.\(index)'", range: range, notes: [note])
  }

  static func noMember(_ name: String, of type: ValueType, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .typeMismatch, message: "value of type '\(type)' has no member '\(name)'", range: range,
      notes: ["arrays and strings have .count and .isEmpty; arrays of strings have .joined()"])
  }

  static func notSubscriptable(_ type: ValueType, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .typeMismatch, message: "value of type '\(type)' cannot be subscripted", range: range)
  }

  static func mixedArray(_ first: ValueType, _ other: ValueType, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .typeMismatch, message: "mixed types '\(first)' and '\(other)' in one list", range: range,
      notes: ["all values must have one type (Int and Double mix to Double)"])
  }

  static func argumentMismatch(
    _ what: String, expected: String, found: ValueType, _ range: SourceRange
  )
    -> Diagnostic
  {
    Diagnostic(id: .typeMismatch, message: "\(what) must be \(expected), but it is '\(found)'", range: range)
  }

  static func badCallArguments(_ name: String, _ usage: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .badArguments, message: "wrong arguments for '\(name)'", range: range, notes: [usage])
  }

  static func wrongArgument(
    _ stage: String, _ message: String, _ range: SourceRange, usage: String
  )
    -> Diagnostic
  {
    Diagnostic(id: .badArgument, message: "\(stage): \(message)", range: range, notes: ["usage: \(usage)"])
  }

  /// A checked stage whose definition finds an argument missing: a bug of pipesh's.
  static func missingArgument(_ stage: String, _ parameter: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .internal, message: "\(stage): pipesh has no checked '\(parameter)' (a bug: please report it)",
      range: range, notes: ["the stage is checked but cannot be built; please report the line that caused it"])
  }

  static func unknownLabel(_ label: String, _ stage: String, _ range: SourceRange, labels: [String]) -> Diagnostic {
    let note =
      NameSuggester.note(for: label, in: labels)
      ?? (labels.isEmpty
        ? "'\(stage)' takes no labelled arguments" : "its labels are " + labels.map { "\($0):" }.joined(separator: " "))
    return Diagnostic(
      id: .badArgument, message: "'\(stage)' has no argument '\(label):'", range: range, notes: [note])
  }

  static func misplaced(_ message: String, _ range: SourceRange, note: String) -> Diagnostic {
    Diagnostic(id: .misplacedStage, message: message, range: range, notes: [note])
  }

  static func elementMismatch(_ stage: String, _ message: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(id: .typeMismatch, message: "\(stage): \(message)", range: range)
  }

  static func channelTypeUnknown(_ name: String, _ range: SourceRange, noun: String = "channel") -> Diagnostic {
    Diagnostic(
      id: .channelTypeUnknown, message: "the element type of \(noun) '\(name)' is not known", range: range,
      notes: ["send it a value first, or name the type: \(noun) \(name) of: Int"])
  }

  static func commandArguments(
    _ command: String, _ message: String, _ range: SourceRange, usage: String
  )
    -> Diagnostic
  {
    Diagnostic(id: .badCommand, message: "\(command): \(message)", range: range, notes: ["usage: \(usage)"])
  }

  static func fragment(_ name: String, _ inner: Diagnostic, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: inner.id, message: "in '\(name)': \(inner.message)", range: range, notes: inner.notes)
  }

  static func reserved(_ name: String, _ range: SourceRange) -> Diagnostic {
    Diagnostic(
      id: .reservedName, message: "'\(name)' is the name of a command or operator", range: range,
      notes: ["choose another name for the fragment"])
  }
}
