import PipeSyntax

/// Reads a command's arguments in the forms that need nothing of the checker.
struct CommandReading {
  let signature: CommandSignature
  let arguments: [Argument]
  let range: SourceRange
  var diagnostics: [Diagnostic] = []

  /// Reports what is wrong with the arguments, with the command's usage.
  mutating func reject(_ message: String, _ at: SourceRange? = nil) {
    diagnostics.append(
      SemaMessages.commandArguments(signature.name, message, at ?? range, usage: signature.usage))
  }

  /// Reports what is wrong with the arguments: nothing is read.
  mutating func fail<Read>(_ message: String, _ at: SourceRange? = nil) -> Read? {
    reject(message, at)
    return nil
  }

  static func word(_ argument: Argument) -> String? {
    guard argument.label == nil, case .name(let word) = argument.value.kind else { return nil }
    return word
  }

  mutating func bare() -> Void? {
    if let extra = arguments.first { return fail("takes no arguments", extra.range) }
    return ()
  }

  /// Whether the first argument is a string (`tasks "F.trace"`, `why "F.trace" …`).
  var startsWithString: Bool {
    if let first = arguments.first, case .string = first.value.kind { return true }
    return false
  }

  /// One saved trace's file, alone: `tasks "run.trace"`.
  mutating func savedTraceAlone() -> String? {
    guard let first = arguments.first else {
      return fail("give the trace's file, as in \(signature.name) \"run.trace\"")
    }
    guard arguments.count == 1 else {
      return fail("give one saved trace's file, alone: \(signature.name) \"run.trace\"", arguments[1].range)
    }
    guard first.label == nil else {
      return fail("the trace's file takes no label: \(signature.name) \"run.trace\"", first.range)
    }
    guard case .string(let parts) = first.value.kind, parts.count == 1, case .text(let path) = parts[0], !path.isEmpty
    else {
      return fail("give the trace's file, as in \(signature.name) \"run.trace\"", first.range)
    }
    return path
  }

  /// A saved probe trace's file and two of its lanes: `why "F.trace" FROM TO`.
  mutating func traceLanes() -> (path: String, from: String, to: String)? {
    let usage = "\(signature.name) \"run.trace\" keys debounced"
    guard let first = arguments.first, first.label == nil, case .string(let parts) = first.value.kind,
      parts.count == 1, case .text(let path) = parts[0], !path.isEmpty
    else {
      return fail("give the trace's file, as in \(usage)", arguments.first?.range)
    }
    let lanes = arguments.dropFirst().map(Self.lane)
    guard lanes.count == 2, let from = lanes[0], let to = lanes[1] else {
      let wrong = arguments.dropFirst().first { Self.lane($0) == nil } ?? arguments[min(3, arguments.count - 1)]
      return fail(
        "after the trace's file, two of its lanes: the one before an operator and the one after it, as in "
          + usage, wrong.range)
    }
    return (path, from, to)
  }

  /// Exactly one job number.
  mutating func job() -> Int? {
    guard arguments.count == 1 else { return fail("name one job") }
    return integers()?.first
  }

  mutating func word(choices: [String]?, missing: String) -> String? {
    guard arguments.count == 1, let word = Self.word(arguments[0]), choices?.contains(word) ?? true else {
      return fail(missing)
    }
    return word
  }

  /// A lane's name: a word, or a plain string (`"keys #2"`).
  static func lane(_ argument: Argument) -> String? {
    if let word = word(argument) { return word }
    guard argument.label == nil, case .string(let parts) = argument.value.kind, parts.count == 1,
      case .text(let text) = parts[0], !text.isEmpty
    else { return nil }
    return text
  }

  mutating func file() -> String? {
    guard arguments.count == 1, arguments[0].label == nil, case .string(let parts) = arguments[0].value.kind,
      parts.count == 1, case .text(let path) = parts[0]
    else { return fail("give the file as a string, as in \(signature.name) \"demo.pipe\"") }
    return path
  }

  /// `"F.trace" OPTIONS`: a saved trace instead of a pipeline (`draw "F.trace" tick: 0.5`).
  mutating func savedTrace(_ names: [String], source: SourceFile) -> (path: String, options: CommandOptions)? {
    guard let first = arguments.first, first.label == nil, case .string(let parts) = first.value.kind,
      parts.count == 1, case .text(let path) = parts[0], !path.isEmpty
    else { return fail("expected a pipeline, or a saved trace's file as a string (\(signature.name) \"run.trace\")") }
    let rest = CommandReading(signature: signature, arguments: Array(arguments.dropFirst()), range: range)
    var reading = rest
    defer { diagnostics += reading.diagnostics }
    guard let options = reading.options(names, source: source) else { return nil }
    return (path, options)
  }

  /// The slowest and fastest playback `replay … speed:` takes. The slowest keeps the longest gap a
  /// trace can hold (2^63 ns, about 292 years) divided by it within what a `Duration` and a clock's
  /// deadline can hold; a smaller speed (`1e-20`) overflowed and trapped.
  static let slowestSpeed = 0.000_001
  static let fastestSpeed = 1_000_000.0

  /// `"FILE" [speed: X]`, X a number from `slowestSpeed` to `fastestSpeed`.
  mutating func recording() -> (path: String, speed: Double?, step: Bool)? {
    guard let first = arguments.first, first.label == nil, case .string(let parts) = first.value.kind,
      parts.count == 1, case .text(let path) = parts[0], !path.isEmpty
    else { return fail("give the trace's file as a string, as in \(signature.name) \"run.trace\"") }
    guard arguments.count > 1 else { return (path, nil, false) }
    let option = arguments[1]
    guard arguments.count == 2, option.label?.name == "speed" || option.label?.name == "step" else {
      return fail("after the file, only speed: X or step: true", option.range)
    }
    if option.label?.name == "step" {
      guard case .bool(let step) = option.value.kind else {
        return fail("'step:' is true or false", option.value.range)
      }
      return (path, nil, step)
    }
    let speed: Double
    switch option.value.kind {
    case .integer(let value): speed = Double(value)
    case .float(let value): speed = value
    default: return fail("'speed:' must be a number, as in speed: 10 (ten times as fast)", option.value.range)
    }
    guard speed >= Self.slowestSpeed, speed <= Self.fastestSpeed else {
      return fail("'speed:' must be at least 0.000001 and at most 1000000", option.value.range)
    }
    return (path, speed, false)
  }

  /// `[N] [LABEL: D]`: a job number, then a duration after the label (`step 2 until: 5`).
  mutating func optionalJob(label: String, source: SourceFile) -> (job: Int?, until: Duration?)? {
    var job: Int?
    var until: Duration?
    for (index, argument) in arguments.enumerated() {
      if argument.label == nil, index == 0, case .integer(let value) = argument.value.kind {
        job = value
        continue
      }
      guard argument.label?.name == label, until == nil, index == arguments.count - 1 else {
        return fail("expected a job number, then \(label): D", argument.range)
      }
      switch Checker.duration(argument.value, zero: false, source: source) {
      case .success(let duration): until = duration
      case .failure(let expected): return fail("'\(label):' must be \(expected.text)", argument.value.range)
      }
    }
    return (job, until)
  }

  /// Labelled options after a command's pipeline: durations (`tick: 0.5`), and `to: "FILE"`, a
  /// picture's file (a web page when its name ends in `.html`, else an SVG picture).
  mutating func options(_ names: [String], source: SourceFile) -> CommandOptions? {
    var read = CommandOptions()
    var seen: Set<String> = []
    for argument in arguments {
      guard let label = argument.label?.name, names.contains(label), !seen.contains(label) else {
        reject(
          names.isEmpty
            ? "takes nothing after the pipeline"
            : "after the pipeline, only \(names.map(CommandOptions.usage).joined(separator: ", "))",
          argument.range)
        return nil
      }
      seen.insert(label)
      if label == CommandOptions.fileLabel {
        guard case .string(let parts) = argument.value.kind, parts.count == 1, case .text(let path) = parts[0],
          !path.isEmpty
        else {
          reject("'to:' must be a file name as a string, as in to: \"throttle.svg\"", argument.value.range)
          return nil
        }
        guard signature.files.contains(where: { path.lowercased().hasSuffix($0) }) else {
          let accepted = signature.files.map { "'\($0)'" }
          let list = accepted.dropLast().joined(separator: ", ") + " or " + (accepted.last ?? "")
          reject("'to:' must name a file ending in \(list), not '\(path)'", argument.value.range)
          return nil
        }
        read.file = path
        continue
      }
      if label == CommandOptions.dialectLabel {
        let word = if case .name(let word) = argument.value.kind { word } else { "" }
        guard let dialect = MarbleDialect(rawValue: word) else {
          diagnostics.append(
            SemaMessages.commandArguments(
              signature.name, "'dialect:' is aa or rxjs", argument.value.range, usage: signature.usage
            ).adding(note: NameSuggester.note(for: word, in: MarbleDialect.words)))
          return nil
        }
        read.dialect = dialect
        continue
      }
      if label == CommandOptions.ordersLabel {
        guard case .integer(let count) = argument.value.kind, (1...100_000).contains(count) else {
          reject("'orders:' must be a whole number from 1 to 100000", argument.value.range)
          return nil
        }
        read.orders = count
        continue
      }
      if label == CommandOptions.seedLabel {
        guard case .integer(let seed) = argument.value.kind, seed >= 0 else {
          reject("'seed:' must be a whole number, 0 or more", argument.value.range)
          return nil
        }
        read.seed = seed
        continue
      }
      if label == CommandOptions.orderLabel {
        guard case .name(let word) = argument.value.kind, let token = OrderToken(word: word) else {
          reject("'order:' must be a token explore printed, as in order: oaaaaaaa", argument.value.range)
          return nil
        }
        read.order = token
        read.orderArgument = arguments.firstIndex { $0.label?.name == CommandOptions.orderLabel }
        continue
      }
      if [CommandOptions.checkedLabel, CommandOptions.demandLabel, CommandOptions.plainLabel].contains(label) {
        guard case .bool(let flag) = argument.value.kind else {
          reject("'\(label):' is true or false", argument.value.range)
          return nil
        }
        switch label {
        case CommandOptions.checkedLabel: read.checked = flag
        case CommandOptions.plainLabel: read.plain = flag
        default: read.demand = flag
        }
        continue
      }
      switch Checker.duration(argument.value, zero: false, source: source) {
      case .success(let duration): read.durations[label] = duration
      case .failure(let expected):
        reject("'\(label):' must be \(expected.text)", argument.value.range)
        return nil
      }
    }
    // The plain form leaves out every check of pipesh's, checked arithmetic too.
    if read.plain && read.checked,
      let plain = arguments.first(where: { $0.label?.name == CommandOptions.plainLabel })
    {
      reject(
        "'plain: true' leaves out pipesh's checks; it does not go with 'checked: true' (choose one)", plain.range)
      return nil
    }
    // RxJS's notation is text: a picture, and the demand lines (a mark per column of pipesh's
    // notation), have none.
    if read.dialect == .rxjs,
      let other = arguments.first(where: {
        $0.label?.name == CommandOptions.demandLabel && read.demand || $0.label?.name == CommandOptions.fileLabel
      })
    {
      reject(
        "'dialect: rxjs' draws text lanes only; it does not go with \(CommandOptions.usage(other.label?.name ?? ""))",
        other.range)
      return nil
    }
    return read
  }

  mutating func failure() -> (channel: String, message: String)? {
    guard arguments.count == 2, let channel = Self.word(arguments[0]), arguments[1].label == nil,
      case .string(let parts) = arguments[1].value.kind, parts.count == 1, case .text(let message) = parts[0]
    else { return fail("name the channel, then the message as a string, as in \(signature.name) user \"offline\"") }
    return (channel, message)
  }

  mutating func duration(source: SourceFile) -> Duration? {
    guard arguments.count == 1, arguments[0].label == nil else { return fail("give one duration, as in 2.5 or 250ms") }
    switch Checker.duration(arguments[0].value, zero: false, source: source) {
    case .success(let duration): return duration
    case .failure(let expected):
      return fail("INTERVAL must be \(expected.text)", arguments[0].range)
    }
  }

  mutating func integers() -> [Int]? {
    var values: [Int] = []
    for argument in arguments {
      guard argument.label == nil, case .integer(let value) = argument.value.kind else {
        reject("expected a job number", argument.range)
        return nil
      }
      values.append(value)
    }
    return values
  }
}
