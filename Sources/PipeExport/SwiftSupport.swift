/// The small definitions an exported program includes: pipesh's own operators and the checked
/// arithmetic, each only when the program uses it.
enum Support: String, CaseIterable, Comparable {
  // Always there: the job runner and its errors.
  case job, errors
  // Checked arithmetic, as pipesh reports it.
  case adding, subtracting, multiplied, divided, remainder, negated, absolute, exactInt, element
  case checked
  // pipesh's own operators.
  case timer, marble, random, failed, lines, stdin, never, enumerated, delay, work, timeout, tap, diagram, timestamp
  // pipesh's checks of arguments worked out from a `flatMap` body's element.
  case arguments

  static func < (a: Support, b: Support) -> Bool {
    allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
  }

  /// What each definition needs besides itself.
  var needs: [Support] {
    switch self {
    case .adding, .subtracting, .multiplied, .divided, .remainder, .negated, .absolute, .exactInt, .element:
      [.checked]
    case .tap: [.timestamp]
    default: []
    }
  }

  /// The arithmetic helpers share one `extension Int`.
  static let arithmetic: [Support] = [
    .adding, .subtracting, .multiplied, .divided, .remainder, .negated, .absolute,
  ]

  var definition: String {
    switch self {
    case .job: Self.jobDefinition
    case .errors: Self.errorsDefinition
    case .checked: Self.checkedDefinition
    case .adding:
      Self.intMethod(
        "adding(_ other: Int)", "addingReportingOverflow(other)", "integer overflow in \\(self) + \\(other)")
    case .subtracting:
      Self.intMethod(
        "subtracting(_ other: Int)", "subtractingReportingOverflow(other)", "integer overflow in \\(self) - \\(other)")
    case .multiplied:
      Self.intMethod(
        "multiplied(by other: Int)", "multipliedReportingOverflow(by: other)",
        "integer overflow in \\(self) * \\(other)")
    case .divided:
      Self.intMethod(
        "divided(by other: Int)", "dividedReportingOverflow(by: other)", "integer overflow in \\(self) / \\(other)",
        zeroCheck: true)
    case .remainder:
      Self.intMethod(
        "remainder(dividingBy other: Int)", "remainderReportingOverflow(dividingBy: other)",
        "integer overflow in \\(self) % \\(other)", zeroCheck: true)
    case .negated:
      Self.intMethod("negated()", "Int(0).subtractingReportingOverflow(self)", "integer overflow in -\\(self)")
    case .absolute:
      """
        func absolute() throws -> Int {
          guard self != .min else { throw ArithmeticError("integer overflow in abs(\\(self))") }
          return abs(self)
        }
      """
    case .exactInt: Self.exactIntDefinition
    case .element: Self.elementDefinition
    case .timer: Self.timerDefinition
    case .failed:
      """
      /// pipesh's `fail "MESSAGE"`: no element, and the error.
      private func failed<Element>(
        as type: Element.Type, _ error: StageError
      ) -> AsyncThrowingStream<Element, Error> {
        AsyncThrowingStream { $0.finish(throwing: error) }
      }
      """
    case .marble: Self.marbleDefinition
    case .random: Self.randomDefinition
    case .lines: Self.linesDefinition
    case .stdin: Self.stdinDefinition
    case .never: Self.neverDefinition
    case .enumerated: Self.enumeratedDefinition
    case .delay: Self.delayDefinition
    case .work: Self.workDefinition
    case .timeout: Self.timeoutDefinition
    case .tap: Self.tapDefinition
    case .diagram: Self.diagramDefinition
    case .timestamp: Self.timestampDefinition
    case .arguments: Self.argumentsDefinition
    }
  }

  /// The definitions `used` needs, in one order, the Int methods in one extension; the job
  /// runner only for a whole program.
  static func definitions(_ used: Set<Support>, program: Bool = true) -> [String] {
    var all = used.union(program ? [.job, .errors] : [.errors])
    for support in used { all.formUnion(support.needs) }
    var out: [String] = []
    let methods = arithmetic.filter(all.contains)
    for support in all.sorted() where !arithmetic.contains(support) {
      out.append(support.definition)
      if support == .checked, !methods.isEmpty {
        out.append(
          "extension Int {\n" + methods.map(\.definition).joined(separator: "\n\n") + "\n}")
      }
    }
    return out
  }

  private static func intMethod(
    _ signature: String, _ operation: String, _ message: String, zeroCheck: Bool = false
  )
    -> String
  {
    let zero =
      zeroCheck ? "    guard other != 0 else { throw ArithmeticError(\"division by zero\") }\n" : ""
    return """
        fileprivate func \(signature) throws -> Int {
      \(zero)    let (result, overflow) = \(operation)
          guard !overflow else { throw ArithmeticError("\(message)") }
          return result
        }
      """
  }

  private static let jobDefinition = """
    /// Runs one job of the script, and prints its error as pipesh does: `error: [N] STAGE: MESSAGE`,
    /// or the pipeline's text for an error that names no stage. Returns false when it failed.
    private func job(
      _ id: Int, _ pipeline: String? = nil, _ body: () async throws -> Void
    ) async -> Bool {
      do {
        try await body()
        return true
      } catch is CancellationError {
        return true
      } catch let error as StageError {
        printError("error: [\\(id)] \\(error.stage): \\(error.message)")
      } catch {
        printError("error: [\\(id)] " + (pipeline.map { "\\($0): " } ?? "") + "\\(error)")
      }
      return false
    }

    private func printError(_ line: String) {
      var line = line + "\\n"
      line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
    """

  private static let errorsDefinition = """
    /// An error of one stage: `map { 10 / $0 }`, `division by zero`.
    private struct StageError: Error {
      let stage: String
      let message: String
    }

    /// The error a channel is ended with by `fail NAME "MESSAGE"`.
    private struct ChannelFailure: Error, CustomStringConvertible {
      let description: String
    }
    """

  private static let checkedDefinition = """
    /// What pipesh reports where Swift's own arithmetic would stop the program.
    private struct ArithmeticError: Error, CustomStringConvertible {
      let message: String
      init(_ message: String) { self.message = message }
      var description: String { message }
    }

    /// A closure whose arithmetic is checked, with the stage its errors are reported against.
    private func checked<Input, Output>(
      _ stage: String, _ body: @escaping @Sendable (Input) throws -> Output
    ) -> @Sendable (Input) async throws -> Output {
      { input in
        do {
          return try body(input)
        } catch let error as ArithmeticError {
          throw StageError(stage: stage, message: error.message)
        }
      }
    }

    /// A two-argument closure (`reduce`, `reductions`) whose arithmetic is checked.
    private func checked<Result, Input>(
      _ stage: String, _ body: @escaping @Sendable (Result, Input) throws -> Result
    ) -> @Sendable (Result, Input) async throws -> Result {
      { result, input in
        do {
          return try body(result, input)
        } catch let error as ArithmeticError {
          throw StageError(stage: stage, message: error.message)
        }
      }
    }
    """

  private static let exactIntDefinition = """
    extension Double {
      /// `int(x)`: the Int toward zero, an error where there is none.
      fileprivate func exactInt() throws -> Int {
        guard let exact = Int(exactly: rounded(.towardZero)) else {
          throw ArithmeticError("\\(self) does not fit in an Int")
        }
        return exact
      }
    }
    """

  private static let elementDefinition = """
    extension Array {
      /// `array[i]`, an error where i is out of range.
      fileprivate func element(at index: Int) throws -> Element {
        guard indices.contains(index) else {
          throw ArithmeticError("index \\(index) out of range for an array of \\(count)")
        }
        return self[index]
      }
    }
    """

  private static let timerDefinition = """
    /// pipesh's `timer`: 0, 1, 2, … one per interval, the first after one interval.
    private func timer(every interval: Duration) -> some AsyncSequence<Int, Never> & Sendable {
      AsyncTimerSequence(interval: interval, clock: .continuous)
        .reductions(-1) { count, _ in count + 1 }
    }
    """

  private static let marbleDefinition = """
    /// pipesh's `marble`: a diagram's values at their steps, one step per tick, the first one tick
    /// after the start. `-` a step with no event, `a` or `'text'` a value (`''` inside the quotes
    /// for `'`), `[ab]` values in one step, `|` the end, `^` a failure, `;` cancelled; with none of
    /// these, it ends after its last event.
    private func marble(
      _ diagram: String, tick: Duration = .seconds(1), stage: String = "marble"
    ) -> AsyncThrowingStream<String, Error> {
      // The values of each step (none for `-`), and the end, where the diagram writes one.
      var steps: [[String]] = []
      var end: Character?
      var group: [String]?
      var quoted: String?
      var closing = false
      func add(_ value: String) {
        if group != nil { group?.append(value) } else { steps.append([value]) }
      }
      for character in diagram where end == nil {
        if closing {
          closing = false
          if character == "'" {
            quoted?.append("'")
            continue
          }
          add(quoted ?? "")
          quoted = nil
        }
        if quoted != nil {
          if character == "'" { closing = true } else { quoted?.append(character) }
          continue
        }
        switch character {
        case " ": continue
        case "'": quoted = ""
        case "[": group = []
        case "]":
          steps.append(group ?? [])
          group = nil
        case "-": steps.append([])
        case "|", "^", ";": end = character
        default: add(String(character))
        }
      }
      if closing { add(quoted ?? "") }
      let values = steps
      let ending = end
      return AsyncThrowingStream { continuation in
        let task = Task {
          let start = ContinuousClock.now
          do {
            for (index, step) in values.enumerated() where !step.isEmpty {
              try await Task.sleep(until: start + tick * (index + 1))
              for value in step { continuation.yield(value) }
            }
            if let ending {
              try await Task.sleep(until: start + tick * (values.count + 1))
              if ending == "^" { throw StageError(stage: stage, message: "failed (^ in the diagram)") }
            }
            continuation.finish()
          } catch {
            continuation.finish(throwing: error is CancellationError ? nil : error)
          }
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
    """

  private static let randomDefinition = """
    /// pipesh's `random`: integers in a range, forever or `count` of them; a seed makes them repeatable
    /// (SplitMix64, as pipesh).
    private struct RandomIntegers: AsyncSequence, Sendable {
      let range: ClosedRange<Int>
      let count: Int?
      let seed: Int?

      func makeAsyncIterator() -> Iterator {
        let generator = seed.map { SplitMix64(state: UInt64(bitPattern: Int64($0))) }
        return Iterator(range: range, remaining: count, generator: generator)
      }

      struct Iterator: AsyncIteratorProtocol {
        let range: ClosedRange<Int>
        var remaining: Int?
        var generator: SplitMix64?

        mutating func next() async -> Int? {
          if let left = remaining {
            guard left > 0 else { return nil }
            remaining = left - 1
          }
          guard !Task.isCancelled else { return nil }
          guard var seeded = generator else { return Int.random(in: range) }
          defer { generator = seeded }
          return Int.random(in: range, using: &seeded)
        }
      }
    }

    private struct SplitMix64: RandomNumberGenerator {
      var state: UInt64

      mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
      }
    }
    """

  private static let linesDefinition = """
    /// pipesh's `lines "FILE"`: the file's lines, or the error of opening it.
    private func lines(ofFile path: String, stage: String) -> AsyncThrowingStream<String, Error> {
      AsyncThrowingStream { continuation in
        guard let file = fopen(path, "r") else {
          let reason = String(cString: strerror(errno))
          let message = "cannot open '\\(path)': \\(reason)"
          continuation.finish(throwing: StageError(stage: stage, message: message))
          return
        }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
          var text = String(cString: line)
          if text.hasSuffix("\\n") { text.removeLast() }
          continuation.yield(text)
        }
        continuation.finish()
      }
    }
    """

  private static let stdinDefinition = """
    /// pipesh's `stdin`: the lines of standard input.
    private func standardInputLines() -> AsyncStream<String> {
      AsyncStream { readLine() }
    }
    """

  private static let neverDefinition = """
    /// pipesh's `never`: no element, and no end until cancelled.
    private func neverEnding<Element>(of type: Element.Type) -> AsyncStream<Element> {
      AsyncStream { _ in }
    }
    """

  private static let enumeratedDefinition = """
    /// pipesh's `enumerated`: (index, element) tuples, counting from 0.
    private struct Enumerated<Base: AsyncSequence>: AsyncSequence {
      typealias Element = (Int, Base.Element)
      typealias Failure = Base.Failure
      let base: Base

      func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

      struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var index = 0

        mutating func next() async throws(Base.Failure) -> (Int, Base.Element)? {
          try await next(isolation: nil)
        }

        mutating func next(
          isolation actor: isolated (any Actor)?
        ) async throws(Base.Failure) -> (Int, Base.Element)? {
          guard let element = try await base.next(isolation: actor) else { return nil }
          defer { index += 1 }
          return (index, element)
        }
      }
    }

    extension Enumerated: Sendable where Base: Sendable {}

    extension AsyncSequence {
      fileprivate func enumerated() -> Enumerated<Self> { Enumerated(base: self) }
    }
    """

  private static let delayDefinition = """
    extension AsyncSequence where Self: Sendable, Element: Sendable {
      /// pipesh's `delay`: each element passed on `interval` after it arrived.
      fileprivate func delayed(
        by interval: Duration
      ) -> some AsyncSequence<Element, Failure> & Sendable {
        map { (ContinuousClock.now + interval, $0) }
          .buffer(policy: .unbounded)
          .map { due, element in
            try? await Task.sleep(until: due)
            return element
          }
      }
    }
    """

  private static let workDefinition = """
    extension AsyncSequence where Self: Sendable, Element: Sendable {
      /// pipesh's `work`: waits `interval` for each element, then passes it on, and only then asks
      /// for the next.
      fileprivate func working(
        for interval: Duration
      ) -> some AsyncSequence<Element, Failure> & Sendable {
        map { element in
          try? await Task.sleep(for: interval)
          return element
        }
      }
    }
    """

  private static let timeoutDefinition = """
    extension AsyncSequence where Self: Sendable, Element: Sendable {
      /// pipesh's `timeout`: fails, as pipesh says it, when no element came for `interval`.
      fileprivate func timeout(
        after interval: Duration, stage: String
      ) -> AsyncThrowingStream<Element, Error> {
        let (seconds, attoseconds) = interval.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        var shown = "\\(nanoseconds)ns"
        if value == 0 || value >= 0.05 {
          shown = "\\((value * 10).rounded() / 10)s"
        } else if nanoseconds >= 1_000_000 {
          shown = "\\((nanoseconds + 500_000) / 1_000_000)ms"
        } else if nanoseconds >= 1_000 {
          shown = "\\((nanoseconds + 500) / 1_000)µs"
        }
        let message = "no element came for \\(shown)"
        return AsyncThrowingStream { continuation in
          let expiring: @Sendable () -> Task<Void, Never> = {
            Task {
              guard (try? await Task.sleep(for: interval)) != nil else { return }
              continuation.finish(throwing: StageError(stage: stage, message: message))
            }
          }
          let pump = Task {
            var watchdog = expiring()
            do {
              for try await element in self {
                watchdog.cancel()
                continuation.yield(element)
                watchdog = expiring()
              }
              continuation.finish()
            } catch {
              continuation.finish(throwing: error)
            }
            watchdog.cancel()
          }
          continuation.onTermination = { _ in pump.cancel() }
        }
      }
    }
    """

  private static let tapDefinition = """
    /// pipesh's `tap`: says `value` for each element and how the input ended, and passes all on.
    private struct Tap<Base: AsyncSequence>: AsyncSequence {
      let base: Base
      let say: @Sendable (String) -> Void

      func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), say: say) }

      struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let say: @Sendable (String) -> Void

        mutating func next() async throws -> Base.Element? {
          do {
            guard let element = try await base.next() else {
              say(Task.isCancelled ? "cancelled" : "finished")
              return nil
            }
            say(String(describing: element))
            return element
          } catch {
            say("failed: \\(error)")
            throw error
          }
        }
      }
    }

    extension Tap: Sendable where Base: Sendable {}

    extension AsyncSequence {
      /// pipesh's `tap "LABEL"`: prints `LABEL: value`, `LABEL: finished`… with `prefix` and, given
      /// an origin, the time since it.
      fileprivate func tap(
        _ label: String, prefix: String = "", since origin: ContinuousClock.Instant? = nil
      ) -> Tap<Self> {
        Tap(base: self) { text in
          print(prefix + (origin.map { timestamp(since: $0) + " " } ?? "") + "\\(label): \\(text)")
        }
      }
    }
    """

  private static let diagramDefinition = """
    /// pipesh's `diagram`: the input as one marble line, column N for what happened at tick N.
    private func diagram<Input: AsyncSequence>(of input: Input, tick: Duration) async -> String {
      let start = ContinuousClock.now
      var steps: [Int: [String]] = [:]
      func record(_ event: String) {
        let step = Int(((ContinuousClock.now - start) / tick).rounded())
        steps[step, default: []].append(event)
      }
      do {
        for try await element in input { record(String(describing: element)) }
        record("|")
      } catch {
        record("^")
      }
      let last = steps.keys.max() ?? 0
      return (1...max(last, 1)).map { step in
        let events = steps[step] ?? []
        return events.isEmpty ? "-" : events.count == 1 ? events[0] : "[" + events.joined() + "]"
      }.joined()
    }
    """

  private static let argumentsDefinition = """
    // Arguments worked out from a `flatMap` body's element (`take $0`), checked as pipesh checks
    // them: the job fails with pipesh's message where the operator would trap or do something else.
    // `element` is the body's element, when the argument is not the element itself.

    /// A count: 0 or more, or with `least: 1` 1 or more.
    private func checkedCount(
      _ value: Int, _ name: String, least: Int = 0, in stage: String, of element: Any? = nil
    ) throws -> Int {
      let shown = element.map { "\\($0)" } ?? "\\(value)"
      guard value >= least else {
        let message = "\\(name) must be \\(least) or more, not \\(value)"
        throw StageError(stage: "\\(stage) ($0 = \\(shown))", message: message)
      }
      return value
    }

    /// `buffer`'s size: at least 1.
    private func checkedSize(_ value: Int, in stage: String, of element: Any? = nil) throws -> Int {
      let shown = element.map { "\\($0)" } ?? "\\(value)"
      guard value >= 1 else {
        throw StageError(stage: "\\(stage) ($0 = \\(shown))", message: "the size must be at least 1")
      }
      return value
    }

    /// `range`'s step: not 0.
    private func checkedStep<Step: Numeric>(
      _ value: Step, in stage: String, of element: Any? = nil
    ) throws -> Step {
      let shown = element.map { "\\($0)" } ?? "\\(value)"
      guard value != 0 else {
        throw StageError(stage: "\\(stage) ($0 = \\(shown))", message: "the step cannot be 0")
      }
      return value
    }

    /// A duration in seconds: more than zero (or 0 or more, `orZero`), at least 1ns, at most 10^9 s.
    private func checkedDuration(
      _ seconds: Int, _ name: String, orZero: Bool = false, in stage: String, of element: Any? = nil
    ) throws -> Duration {
      try checkedDuration(
        Double(seconds), name, orZero: orZero, in: stage, of: element ?? seconds, shown: "\\(seconds)")
    }

    private func checkedDuration(
      _ seconds: Double, _ name: String, orZero: Bool = false, in stage: String, of element: Any? = nil,
      shown written: String? = nil
    ) throws -> Duration {
      let shown = element.map { "\\($0)" } ?? "\\(seconds)"
      let value = written ?? "\\(seconds)"
      func failure(_ rule: String) -> StageError {
        StageError(
          stage: "\\(stage) ($0 = \\(shown))", message: "\\(name) must be \\(rule), not \\(value)")
      }
      let nanoseconds = seconds * 1e9
      guard nanoseconds.isFinite, abs(nanoseconds) <= 1e18 else {
        throw failure("at most 1000000000s (about 31 years)")
      }
      let duration = Duration.nanoseconds(Int64(nanoseconds.rounded()))
      if seconds > 0 && duration == .zero && !orZero { throw failure("at least 1ns") }
      guard duration > .zero || (orZero && duration == .zero) else {
        throw failure(orZero ? "0 or more" : "more than zero")
      }
      return duration
    }
    """

  private static let timestampDefinition = """
    /// The time since `origin` as pipesh prints it: `+1.500s`.
    private func timestamp(since origin: ContinuousClock.Instant) -> String {
      let milliseconds = (ContinuousClock.now - origin) / .milliseconds(1)
      let rounded = Int(milliseconds.rounded())
      let fraction = String(rounded % 1000)
      return "+\\(rounded / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
    }
    """
}
