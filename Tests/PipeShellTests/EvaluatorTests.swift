import PipeEvaluator
import PipeSyntax
import Testing

@testable import PipeRuntime
@testable import PipeSema
@testable import PipeShell

@Suite("evaluator")
struct EvaluatorTests {
  /// Checks and compiles the closure of `from V | map { … }` and applies it to V.
  func evaluate(_ body: String, _ input: String = "1") throws -> Value {
    let (expr, value) = try closure(body, input)
    return try Evaluator(stage: "map").compile(expr)(value, .none)
  }

  /// The closure of `from V | map { … }`, checked.
  func closure(_ body: String, _ input: String) throws -> (TypedExpr, Value) {
    let source = SourceFile(name: nil, text: "check from \(input) | map { \(body) }")
    let script = Parser.parse(source, grammar: .pipesh)
    var checker = Checker(environment: Environment.pipesh, source: source)
    let statement = try #require(script.statements.first)
    guard case .command(let command, _) = checker.check(statement),
      let pipeline = (command.command as? Commands.Check)?.pipeline,
      case .closure(let expr) = pipeline.stages[1].arguments["transform"],
      case .values(let values, _) = pipeline.stages[0].arguments["values"]
    else {
      throw PipelineError(stage: body, message: "did not check: \(checker.diagnostics.map(\.message))")
    }
    return (expr, values[0])
  }

  /// Closures over Ints are compiled to plain-Int closures: each gives what the reference (the
  /// closure over `Value`s) gives, the same value or the same error with the same message, for
  /// values at the edges of Int.
  @Test(arguments: [
    "$0 * 2", "$0 % 3 == 0", "($0 * 2) % 3 == 0", "$0 + 1", "$0 - 1", "-$0", "abs($0)", "$0 / ($0 - 1)",
    "$0 % ($0 + 1)", "max($0, 3) - min($0, -3)", "$0 > 1 && $0 < 5", "$0 < 0 || $0 > 10 ? $0 : 0 - $0",
    "!($0 == 2)", "$0 * $0 * $0", "10 / $0", "$0 / -1", "$0 != 0", "$0 % 3 != 1", "$0 * 2 < 5", "$0 + 5 >= 7",
    "$0 - 1 <= 0", "$0 / 0 == 1", "$0 % 0 > 1", "$0", "7", "\"v=\\($0)\"", "\"\\($0) and \\($0 * 2)!\"",
    "\"\\($0 * 1.5)\\(true)\\(\"s\")\"",
  ])
  func intClosuresGiveWhatTheReferenceGives(_ body: String) throws {
    let inputs = [0, 1, -1, 2, 3, 7, -7, 1 << 32, Int.max, Int.min, Int.max / 2, Int.min + 1]
    for input in inputs {
      let (expr, value) = try closure(body, "\(input)")
      let evaluator = Evaluator(stage: "map { \(body) }")
      let reference = Result { () throws(PipelineError) in try evaluator.compileReference(expr)(value, .none) }
      expectSame(
        Result { () throws(PipelineError) in try evaluator.compile(expr)(value, .none) }, reference, body, input)
      // The closures a fused run's Ints pass through unboxed (`IntStep`), where the expression has one.
      if let intClosure = evaluator.intClosure(expr) {
        expectSame(Result { () throws(PipelineError) in .int(try intClosure(input, 0)) }, reference, body, input)
      }
      if let intPredicate = evaluator.intPredicate(expr) {
        expectSame(Result { () throws(PipelineError) in .bool(try intPredicate(input, 0)) }, reference, body, input)
      }
    }
  }

  /// The same value, or an error with the same message.
  func expectSame(
    _ fast: Result<Value, PipelineError>, _ reference: Result<Value, PipelineError>, _ body: String, _ input: Int
  ) {
    switch (fast, reference) {
    case (.success(let a), .success(let b)): #expect(a == b, "\(body) with $0 = \(input)")
    case (.failure(let a), .failure(let b)): #expect(a.message == b.message, "\(body) with $0 = \(input)")
    default: Issue.record("\(body) with $0 = \(input): \(fast) against \(reference)")
    }
  }

  /// The Int forms exist for the shapes a fused run takes unboxed, so the test above compares them.
  @Test func intFormsExistForTheCommonShapes() throws {
    let evaluator = Evaluator(stage: "map")
    #expect(evaluator.intClosure(try closure("$0 * 2", "1").0) != nil)
    #expect(evaluator.intClosure(try closure("$0", "1").0) != nil)
    #expect(evaluator.intPredicate(try closure("$0 % 3 == 0", "1").0) != nil)
    #expect(evaluator.intClosure(try closure("$0 * 1.5", "1").0) == nil)
  }

  /// Double closures too: the same values as the reference, NaN and infinities included.
  @Test(arguments: [
    "$0 * 1.5", "$0 / 0.0", "-$0 + 0.25", "$0 % 2.5", "($0 - 1.0) * ($0 + 1.0)", "$0 / 3", "2.5 - $0", "$0 * 1.5 + $0",
    "-($0 * 0.5)", "$0 - 0.5 * $0",
  ])
  func doubleClosuresGiveWhatTheReferenceGives(_ body: String) throws {
    for input in ["0.0", "1.5", "-2.25", "1e308", "-1e308", "3", "-7"] {
      let (expr, value) = try closure(body, input)
      let evaluator = Evaluator(stage: "map { \(body) }")
      let fast = try evaluator.compile(expr)(value, .none)
      let reference = try evaluator.compileReference(expr)(value, .none)
      #expect(fast.printed == reference.printed, "\(body) with $0 = \(input)")
    }
  }

  static let results: [(String, String, String)] = [
    ("$0 * 2", "21", "42"),
    ("$0 / 2", "7", "3"),
    ("$0 % 3", "7", "1"),
    ("$0 * 1.5", "2", "3.0"),
    ("$0 > 1 && $0 < 5", "3", "true"),
    ("$0 == 3 ? \"yes\" : \"no\"", "3", "yes"),
    ("\"n=\\($0)\"", "4", "n=4"),
    ("str($0) + \"!\"", "4", "4!"),
    ("$0.count", "\"hello\"", "5"),
    ("$0.joined(separator: \"-\")", "[\"a\", \"b\"]", "a-b"),
    ("$0[1]", "[10, 20]", "20"),
    ("$0.1", "(1, \"x\")", "x"),
    ("int($0)", "\"12\"", "12"),
    ("int($0)", "\"x\"", "nil"),
    ("double($0)", "2", "2.0"),
    ("abs($0)", "-5", "5"),
    ("min($0, 3)", "5", "3"),
    ("max($0, 3.5)", "5", "5.0"),
    ("-$0", "5", "-5"),
    ("[$0, $0]", "1", "[1, 1]"),
    ("($0, \"a\")", "1", "(1, \"a\")"),
  ]

  @Test("results", arguments: results)
  func closureResults(_ body: String, _ input: String, _ expected: String) throws {
    #expect(try evaluate(body, input).printed == expected)
  }

  static let failures: [(String, String, String)] = [
    ("10 / $0", "0", "division by zero"),
    ("10 % $0", "0", "division by zero"),
    ("$0 + 1", "9223372036854775807", "integer overflow in 9223372036854775807 + 1"),
    ("$0 * $0", "4294967296", "integer overflow in 4294967296 * 4294967296"),
    ("$0[5]", "[1]", "index 5 out of range for an array of 1"),
    ("abs($0 - 1)", "-9223372036854775807", "integer overflow in abs(-9223372036854775808)"),
  ]

  @Test("run-time errors are job errors", arguments: failures)
  func closureFailures(_ body: String, _ input: String, _ message: String) {
    #expect(throws: PipelineError.self) { try evaluate(body, input) }
    do {
      _ = try evaluate(body, input)
    } catch let error as PipelineError {
      #expect(error.message == message)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  /// `print` shows what Swift's `print(_:)` shows, with optionals as their value or nil.
  static let printed: [(Value, String)] = [
    (.int(42), "42"), (.double(1.5), "1.5"), (.double(2), "2.0"), (.string("hello"), "hello"), (.bool(true), "true"),
    (.tuple([.int(1), .string("a")]), "(1, \"a\")"), (.array([.int(1), .int(2), .int(3)]), "[1, 2, 3]"),
    (.array([.string("a"), .string("b")]), "[\"a\", \"b\"]"), (.none, "nil"), (.array([.int(1), .none]), "[1, nil]"),
    (.double(1e16), "1e+16"), (.string("a\"b"), "a\"b"), (.array([.string("a\"b\n")]), "[\"a\\\"b\\n\"]"),
  ]

  @Test("printing", arguments: printed)
  func printedText(_ value: Value, _ expected: String) {
    #expect(value.printed == expected)
  }
}

/// A duration worked out from `$0` that is more than zero but under the clocks' resolution says
/// the rule it broke, as the same duration written out does (the Swift export does not take
/// durations from `$0` yet, so this is not a transcript).
@Test func aSubNanosecondDurationFromTheElementSaysAtLeast1ns() async {
  let lines = await Shell.runExample("from 0.0000000001 | flatMap { timer $0 | take 1 }")
  #expect(lines == ["error: [1] timer $0 ($0 = 1e-10): INTERVAL must be at least 1ns, not 1e-10"])
}
