/// The small definitions an exported program includes: pipesh's own operators and the checked
/// arithmetic, each only when the program uses it.
enum Support: String, CaseIterable, Comparable {
  // The job runner (in a program with a job) and the error of a stage (`StageError`).
  case job, errors
  // The error `fail NAME "MESSAGE"` ends a channel with.
  case channelFailure
  // Checked arithmetic, as pipesh reports it.
  case arithmeticError, adding, subtracting, multiplied, divided, remainder, negated, absolute, exactInt, element
  // A closure whose arithmetic is checked: one argument (map, filter…), two (reduce, reductions).
  case checked, checkedAccumulating
  // pipesh's own operators.
  case timer, marble, random, failed, lines, stdin, never, enumerated, delay, work, timeout, tap, diagram, timestamp
  case currentValue, concurrentFlatMap, flatMapLatest, rethrowing
  // pipesh's checks of arguments worked out from a `flatMap` body's element, one per kind of
  // argument, so that a program has only those it calls.
  case checkedCount, checkedSize, checkedRange, checkedStep, checkedDuration

  static func < (a: Support, b: Support) -> Bool {
    allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
  }

  /// What each definition needs besides itself.
  var needs: [Support] {
    switch self {
    case .adding, .subtracting, .multiplied, .divided, .remainder, .negated, .absolute, .exactInt, .element:
      [.arithmeticError]
    case .tap: [.timestamp, .errors]
    case .job: [.errors]
    // What reports a stage's error with StageError.
    case .checked, .checkedAccumulating: [.errors, .arithmeticError]
    case .failed, .lines, .marble, .timeout, .checkedCount, .checkedSize, .checkedRange, .checkedStep,
      .checkedDuration:
      [.errors]
    default: []
    }
  }

  /// Whether the definitions keep state behind a `Mutex` (pipesh's flatMapLatest and
  /// `flatMap … concurrency: N`): the program imports Synchronization.
  static func needsMutex(_ support: Set<Support>) -> Bool {
    !support.isDisjoint(with: [.flatMapLatest, .concurrentFlatMap])
  }

  /// The arithmetic helpers share one `extension Int`.
  static let arithmetic: [Support] = [
    .adding, .subtracting, .multiplied, .divided, .remainder, .negated, .absolute,
  ]

  /// The definition as the program includes it: the file in `Support/` without its imports (the
  /// program has its own), its top-level declarations `private` (in `ExportSupport` the files
  /// share one module; an exported program is one file, and the export test compiles many of them
  /// into one module); an arithmetic method without the `extension Int` around it, since the
  /// methods share one.
  var definition: String {
    let file = String(decoding: source, as: UTF8.self)
    var lines = file.split(separator: "\n", omittingEmptySubsequences: false).drop { line in
      line.hasPrefix("import ") || line.isEmpty
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    if Self.arithmetic.contains(self) {
      lines = lines.dropFirst().dropLast()
    }
    return lines.map { line in
      Self.declarationKeywords.contains { line.hasPrefix($0 + " ") } ? "private " + line : String(line)
    }.joined(separator: "\n")
  }

  /// The words that begin a top-level declaration in `Support/` other than an extension.
  private static let declarationKeywords = ["func", "struct", "enum", "final class", "class", "actor", "let", "var"]

  /// `Sources/PipeExport/Support/NAME.swift`, compiled as the target `ExportSupport`.
  private var source: [UInt8] {
    switch self {
    case .job: PackageResources.Job_swift
    case .errors: PackageResources.Errors_swift
    case .channelFailure: PackageResources.ChannelFailure_swift
    case .adding: PackageResources.Adding_swift
    case .subtracting: PackageResources.Subtracting_swift
    case .multiplied: PackageResources.Multiplied_swift
    case .divided: PackageResources.Divided_swift
    case .remainder: PackageResources.Remainder_swift
    case .negated: PackageResources.Negated_swift
    case .absolute: PackageResources.Absolute_swift
    case .exactInt: PackageResources.ExactInt_swift
    case .element: PackageResources.Element_swift
    case .arithmeticError: PackageResources.ArithmeticError_swift
    case .checked: PackageResources.Checked_swift
    case .checkedAccumulating: PackageResources.CheckedAccumulating_swift
    case .timer: PackageResources.Timer_swift
    case .marble: PackageResources.Marble_swift
    case .random: PackageResources.Random_swift
    case .failed: PackageResources.Failed_swift
    case .lines: PackageResources.Lines_swift
    case .stdin: PackageResources.Stdin_swift
    case .never: PackageResources.Never_swift
    case .enumerated: PackageResources.Enumerated_swift
    case .delay: PackageResources.Delay_swift
    case .work: PackageResources.Work_swift
    case .timeout: PackageResources.Timeout_swift
    case .tap: PackageResources.Tap_swift
    case .diagram: PackageResources.Diagram_swift
    case .timestamp: PackageResources.Timestamp_swift
    case .currentValue: PackageResources.CurrentValue_swift
    case .concurrentFlatMap: PackageResources.ConcurrentFlatMap_swift
    case .flatMapLatest: PackageResources.FlatMapLatest_swift
    case .rethrowing: PackageResources.Rethrowing_swift
    case .checkedCount: PackageResources.CheckedCount_swift
    case .checkedSize: PackageResources.CheckedSize_swift
    case .checkedRange: PackageResources.CheckedRange_swift
    case .checkedStep: PackageResources.CheckedStep_swift
    case .checkedDuration: PackageResources.CheckedDuration_swift
    }
  }

  /// The definitions `used` needs, in one order, the Int methods in one extension.
  static func definitions(_ used: Set<Support>) -> [String] {
    var all = used
    var needed = all.union(all.flatMap(\.needs))
    while needed != all {
      all = needed
      needed = all.union(all.flatMap(\.needs))
    }
    var out: [String] = []
    let methods = arithmetic.filter(all.contains)
    for support in all.sorted() where !arithmetic.contains(support) {
      out.append(support.definition)
      if support == .arithmeticError, !methods.isEmpty {
        out.append(
          "extension Int {\n" + methods.map(\.definition).joined(separator: "\n\n") + "\n}")
      }
    }
    return out
  }
}
