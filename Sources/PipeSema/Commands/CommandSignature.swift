import PipeSyntax

/// What follows a command's name, and so how the checker reads it.
public enum CommandForm: Sendable {
  /// Nothing: `jobs`.
  case bare
  /// Job numbers, as many as given (`wait`, `wait 1 2`); with `all`, the word `all` too;
  /// `missing` is the message when none are given and some must be.
  case jobs(all: Bool, missing: String?)
  /// Exactly one job number: `inspect 1`.
  case job
  /// A pipeline; `partial` allows one without a source or a sink (`check map { $0 }`); after it,
  /// the labelled durations `options` name (`draw … tick: 0.5`). With `savedTrace`, a saved trace's
  /// file may stand instead of the pipeline (`draw "F.trace"`).
  case pipeline(partial: Bool, options: [String] = [], savedTrace: Bool = false)
  /// A channel name and constants: `send c 1 2`.
  case values
  /// One bare word; `choices` limits it (`clock real`), `missing` says what to give. With
  /// `optional`, the command alone reads as the word "" (`clock` shows the clock).
  case word(choices: [String]?, missing: String, optional: Bool = false)
  /// An optional bare word naming a command or an operator: `help`, `help take`.
  case topic
  /// One string: `load "demo.pipe"`.
  case file
  /// An optional job number and an optional duration labelled `label`: `step`, `step 2 until: 5`.
  case optionalJob(label: String)
  /// A saved trace's file, and how fast to play it back (`replay "run.trace" speed: 10`), or
  /// whether to step through it (`step: true`).
  case recording
  /// One duration, more than zero: `sleep 2.5`.
  case duration
  /// A channel name and a message: `fail user "offline"`.
  case failure
  /// A block taken as written and read as swift-async-algorithms' validation form:
  /// `validate { "ab|" ⏎ $0.inputs[0] ⏎ "ab|" }`.
  case validation
  /// A pipeline, a claim about it (`== "DIAGRAM"`, `prints V…`, `fails "M"`, `ends "NODE" "R"`),
  /// then the labelled `options`: `expect P == "ab|" tick: 2`.
  case expectation(options: [String])
}

/// What the checker read after a command's name, in its form.
public enum CommandArguments: Sendable {
  case none
  case jobs([Int])
  case allJobs
  /// `tasks N… all`: the jobs, with every task of pipesh's own shown (not folded into a count).
  case jobsWithEveryTask([Int])
  case pipeline(CheckedPipeline, options: CommandOptions)
  /// A saved trace's file where a pipeline could stand, and the options after it.
  case savedTrace(String, options: CommandOptions)
  case values(channel: String, [Value])
  case word(String)
  case topic(String?)
  case file(String)
  /// A job number, or nil for every job, and a time, or nil for the next instant: `step 2 until: 5`.
  case optionalJob(Int?, until: Duration?)
  /// `speed` nil: show every event at once; `step`: show them an instant a `step`.
  case recording(String, speed: Double?, step: Bool)
  case duration(Duration)
  case failure(channel: String, message: String)
  /// `validate { … }`, read and translated.
  case validation(CheckedValidation)
  case expectation(CheckedExpectation)
}

extension CommandArguments {
  /// The channel a `close NAME` or `fail NAME "…"` names.
  var channel: String? {
    switch self {
    case .word(let word): word
    case .failure(let channel, _): channel
    default: nil
    }
  }
}

/// A shell command as the parser and the checker see it: its kind, its form, its help.
public struct CommandSignature: Sendable {
  public let kind: CommandKind
  public let form: CommandForm
  /// `cancel N… | cancel all`
  public let usage: String
  public let summary: String
  /// Whether its first word names a channel that must exist already (`close`, `fail`): a typo
  /// would otherwise leave the real channel open.
  public let namesKnownChannel: Bool
  /// The endings a `to: "FILE"` may have (`.svg`, `.html`, and `.trace` for `trace`): any other is
  /// refused before anything runs (`to: "x.jsonl"` wrote an SVG picture and said it wrote x.jsonl).
  public let files: [String]
  /// What the command written with `&` says besides that a command runs in the foreground (`send`:
  /// how a pipeline sends in the background); nil: to run it without `&`.
  public let backgroundNote: String?

  /// What `to:` writes for most commands: an SVG picture or a web page.
  public static let pictureFiles = [".svg", ".html"]

  /// A command's grammar; `usage` is its name when nothing follows it.
  init(
    _ kind: CommandKind, _ form: CommandForm, usage: String? = nil, summary: String, namesKnownChannel: Bool = false,
    files: [String] = pictureFiles, backgroundNote: String? = nil
  ) {
    self.kind = kind
    self.form = form
    self.usage = usage ?? kind.name
    self.summary = summary
    self.namesKnownChannel = namesKnownChannel
    self.files = files
    self.backgroundNote = backgroundNote
  }

  /// The name a statement writes.
  public var name: String { kind.name }

  /// Whether its `{ … }` is taken as written (`validate`).
  var takesVerbatimBlock: Bool {
    if case .validation = form { return true }
    return false
  }

  var takesPipeline: Bool {
    switch form {
    case .pipeline, .expectation: true
    default: false
    }
  }

  /// The labels that end the command's pipeline and start its own options.
  public var options: [String] {
    switch form {
    case .pipeline(_, let options, _), .expectation(let options): options
    default: []
    }
  }
}

/// The commands, in the order `help` lists them.
public struct CommandTable: Sendable {
  public let all: [CommandSignature]
  /// What `help` explains beside the commands and operators (`let`).
  public let topics: [String]
  private let byName: [String: CommandSignature]

  public init(_ commands: [CommandSignature], topics: [String]) {
    all = commands
    self.topics = topics
    byName = Dictionary(commands.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  public subscript(name: String) -> CommandSignature? { byName[name] }

  public var names: [String] { all.map(\.name) }
}

/// A checked shell command: which one, and its arguments in its form.
public struct CheckedCommand: Sendable {
  public let kind: CommandKind
  public let arguments: CommandArguments
  /// Where the command is written, and each of its arguments: a run-time error points there.
  public let range: SourceRange
  public let argumentRanges: [SourceRange]
}

extension Checker {
  /// A command option (`tick:`) written right after a last stage that takes the same label
  /// (`draw marble "ab|" tick: 2`) could mean either: refused, with both spellings.
  func ambiguousOption(
    _ arguments: [Argument], after pipeline: Pipeline, command: String
  ) -> (message: String, range: SourceRange)? {
    guard let last = pipeline.stages.last, case .call(let stage, _) = last.kind,
      let signature = environment.operators.byName[stage.name]
    else { return nil }
    let labels = Set(signature.parameters.compactMap(\.label))
    guard let argument = arguments.first(where: { $0.label.map { labels.contains($0.name) } ?? false }),
      let label = argument.label?.name
    else { return nil }
    let written = source.displayText(of: pipeline.range)
    let option = source.text(of: argument.range)
    return (
      "'\(label):' here could be \(stage.name)'s or \(command)'s: write (\(written) \(option)) for \(stage.name)'s, "
        + "or (\(written)) \(option) for \(command)'s",
      argument.range
    )
  }

  mutating func checkCommand(
    _ name: Identifier, _ arguments: [Argument], _ pipeline: Pipeline?, _ range: SourceRange
  ) -> CheckedCommand? {
    guard let signature = environment.commands[name.name] else {
      report(SemaMessages.commandArguments(name.name, "unknown command", range, usage: name.name))
      return nil
    }
    var reading = CommandReading(signature: signature, arguments: arguments, range: range)
    let read: CommandArguments?
    switch signature.form {
    case .bare: read = reading.bare()
    case .jobs(let all, let missing): read = reading.jobs(all: all, missing: missing)
    case .job: read = reading.job()
    case .pipeline(let partial, let options, let savedTrace):
      guard let pipeline else {
        read = savedTrace ? reading.savedTrace(options, source: source) : reading.fail("expected a pipeline")
        break
      }
      let checked =
        partial
        ? (withinExpansionLimits(pipeline) ? checkPipeline(pipeline, input: nil, allowSink: true) : nil)
        : checkTopLevel(pipeline)
      if let ambiguous = ambiguousOption(arguments, after: pipeline, command: name.name) {
        read = reading.fail(ambiguous.message, ambiguous.range)
        break
      }
      let optionValues = reading.options(options, source: source)
      read = checked.flatMap { checked in optionValues.map { .pipeline(checked, options: $0) } }
    case .values: read = checkSend(&reading)
    case .word(let choices, let missing, let optional):
      read = optional && reading.arguments.isEmpty ? .word("") : reading.word(choices: choices, missing: missing)
    case .topic: read = checkTopic(&reading)
    case .file: read = reading.file()
    case .optionalJob(let label): read = reading.optionalJob(label: label, source: source)
    case .recording: read = reading.recording()
    case .duration: read = reading.duration(source: source)
    case .failure:
      read = checkFailure(&reading)
    case .validation:
      read = checkValidation(arguments, range)
    case .expectation(let options):
      read = pipeline.flatMap { checkExpectation($0, &reading, options: options) }
    }
    diagnosticsAppend(reading.diagnostics)
    if signature.namesKnownChannel, let channel = read?.channel, environment.channels[channel] == nil {
      report(SemaMessages.unknownChannel(channel, arguments.first?.range ?? range, known: environment.channels.keys))
      return nil
    }
    return read.map {
      CheckedCommand(kind: signature.kind, arguments: $0, range: range, argumentRanges: arguments.map(\.range))
    }
  }

  /// `send NAME V…`: the values are constants of the channel's type (the first send fixes it).
  private mutating func checkSend(_ reading: inout CommandReading) -> CommandArguments? {
    let arguments = reading.arguments
    guard let first = arguments.first, let channel = CommandReading.word(first) else {
      return reading.fail("name the channel first", arguments.first?.range)
    }
    guard arguments.count > 1 else { return reading.fail("give at least one value to send") }
    var constants = ConstantChecker()
    var values: [Value] = []
    let declared = environment.channels[channel]
    var type = declared ?? .never
    for argument in arguments.dropFirst() {
      guard let (value, valueType) = constants.check(argument.value) else {
        if constants.diagnostics.isEmpty { return reading.fail("values must be constants", argument.range) }
        diagnosticsAppend(constants.diagnostics)
        return nil
      }
      guard let joined = ValueType.join(type, valueType), declared == nil || joined == declared else {
        let noun = environment.endpoints[channel]?.noun ?? "channel"
        return reading.fail("\(noun) '\(channel)' carries '\(type)', not '\(valueType)'", argument.range)
      }
      type = joined
      values.append(value)
    }
    if declared == nil { setChannel(channel, type) }
    return .values(channel: channel, values.map { convert($0, to: type) })
  }

  /// `fail NAME "MESSAGE"`: NAME becomes an `AsyncThrowingChannel`; a stream or subject cannot fail.
  private mutating func checkFailure(_ reading: inout CommandReading) -> CommandArguments? {
    let read = reading.failure()
    guard case .failure(let channel, _) = read else { return nil }
    if let endpoint = environment.endpoints[channel] {
      return reading.fail(
        "'\(channel)' is a \(endpoint.noun), which cannot fail (an AsyncStream finishes without an error): "
          + "'close \(channel)' ends it; a channel declared 'channel NAME of: TYPE throws' can fail")
    }
    environment.failingChannels.insert(channel)
    return read
  }

  /// `help [NAME]`: NAME is a command, a topic, an operator, or a word of Combine's or Swift's.
  private mutating func checkTopic(_ reading: inout CommandReading) -> CommandArguments? {
    let arguments = reading.arguments
    guard let first = arguments.first else { return .topic(nil) }
    // The lexer has said what is wrong with it (`help @MainActor`).
    if arguments.count == 1, case .missing = first.value.kind { return nil }
    guard arguments.count == 1, let topic = CommandReading.word(first) else {
      return reading.fail("name one command or operator")
    }
    let known = environment.operators.names + environment.commands.names + environment.commands.topics
    guard known.contains(topic) || ForeignName.named(topic) != nil else {
      let note = NameSuggester.note(for: topic, in: known) ?? "'ops' lists the operators"
      report(Diagnostic(id: .unknownName, message: "no help for '\(topic)'", range: first.range, notes: [note]))
      return nil
    }
    return .topic(topic)
  }
}

/// Reads a command's arguments in the forms that need nothing of the checker.
struct CommandReading {
  let signature: CommandSignature
  let arguments: [Argument]
  let range: SourceRange
  var diagnostics: [Diagnostic] = []

  mutating func fail(_ message: String, _ at: SourceRange? = nil) -> CommandArguments? {
    diagnostics.append(
      SemaMessages.commandArguments(signature.name, message, at ?? range, usage: signature.usage))
    return nil
  }

  static func word(_ argument: Argument) -> String? {
    guard argument.label == nil, case .name(let word) = argument.value.kind else { return nil }
    return word
  }

  mutating func bare() -> CommandArguments? {
    if let extra = arguments.first { return fail("takes no arguments", extra.range) }
    return CommandArguments.none
  }

  mutating func jobs(all: Bool, missing: String?) -> CommandArguments? {
    if all, arguments.count == 1, Self.word(arguments[0]) == "all" { return .allJobs }
    if let missing, arguments.isEmpty { return fail(missing) }
    // `tasks N… all` shows pipesh's own tasks too.
    if signature.kind == .tasks, arguments.count > 1, let last = arguments.last, Self.word(last) == "all" {
      var rest = CommandReading(signature: signature, arguments: Array(arguments.dropLast()), range: range)
      defer { diagnostics += rest.diagnostics }
      return rest.integers().map { .jobsWithEveryTask($0) }
    }
    return integers().map { .jobs($0) }
  }

  mutating func job() -> CommandArguments? {
    guard arguments.count == 1 else { return fail("name one job") }
    return integers().map { .jobs($0) }
  }

  mutating func word(choices: [String]?, missing: String) -> CommandArguments? {
    guard arguments.count == 1, let word = Self.word(arguments[0]), choices?.contains(word) ?? true else {
      return fail(missing)
    }
    return .word(word)
  }

  mutating func file() -> CommandArguments? {
    guard arguments.count == 1, arguments[0].label == nil, case .string(let parts) = arguments[0].value.kind,
      parts.count == 1, case .text(let path) = parts[0]
    else { return fail("give the file as a string, as in \(signature.name) \"demo.pipe\"") }
    return .file(path)
  }

  /// `"F.trace" OPTIONS`: a saved trace instead of a pipeline (`draw "F.trace" tick: 0.5`).
  mutating func savedTrace(_ names: [String], source: SourceFile) -> CommandArguments? {
    guard let first = arguments.first, first.label == nil, case .string(let parts) = first.value.kind,
      parts.count == 1, case .text(let path) = parts[0], !path.isEmpty
    else { return fail("expected a pipeline, or a saved trace's file as a string (\(signature.name) \"run.trace\")") }
    let rest = CommandReading(signature: signature, arguments: Array(arguments.dropFirst()), range: range)
    var reading = rest
    defer { diagnostics += reading.diagnostics }
    guard let options = reading.options(names, source: source) else { return nil }
    return .savedTrace(path, options: options)
  }

  /// The slowest and fastest playback `replay … speed:` takes. The slowest keeps the longest gap a
  /// trace can hold (2^63 ns, about 292 years) divided by it within what a `Duration` and a clock's
  /// deadline can hold; a smaller speed (`1e-20`) overflowed and trapped.
  static let slowestSpeed = 0.000_001
  static let fastestSpeed = 1_000_000.0

  /// `"FILE" [speed: X]`, X a number from `slowestSpeed` to `fastestSpeed`.
  mutating func recording() -> CommandArguments? {
    guard let first = arguments.first, first.label == nil, case .string(let parts) = first.value.kind,
      parts.count == 1, case .text(let path) = parts[0], !path.isEmpty
    else { return fail("give the trace's file as a string, as in \(signature.name) \"run.trace\"") }
    guard arguments.count > 1 else { return .recording(path, speed: nil, step: false) }
    let option = arguments[1]
    guard arguments.count == 2, option.label?.name == "speed" || option.label?.name == "step" else {
      return fail("after the file, only speed: X or step: true", option.range)
    }
    if option.label?.name == "step" {
      guard case .bool(let step) = option.value.kind else {
        return fail("'step:' is true or false", option.value.range)
      }
      return .recording(path, speed: nil, step: step)
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
    return .recording(path, speed: speed, step: false)
  }

  /// `[N] [LABEL: D]`: a job number, then a duration after the label (`step 2 until: 5`).
  mutating func optionalJob(label: String, source: SourceFile) -> CommandArguments? {
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
    return .optionalJob(job, until: until)
  }

  /// Labelled options after a command's pipeline: durations (`tick: 0.5`), and `to: "FILE"`, a
  /// picture's file (a web page when its name ends in `.html`, else an SVG picture).
  mutating func options(_ names: [String], source: SourceFile) -> CommandOptions? {
    var read = CommandOptions()
    var seen: Set<String> = []
    for argument in arguments {
      guard let label = argument.label?.name, names.contains(label), !seen.contains(label) else {
        _ = fail(
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
          _ = fail("'to:' must be a file name as a string, as in to: \"throttle.svg\"", argument.value.range)
          return nil
        }
        guard signature.files.contains(where: { path.lowercased().hasSuffix($0) }) else {
          let accepted = signature.files.map { "'\($0)'" }
          let list = accepted.dropLast().joined(separator: ", ") + " or " + (accepted.last ?? "")
          _ = fail("'to:' must name a file ending in \(list), not '\(path)'", argument.value.range)
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
      if [CommandOptions.checkedLabel, CommandOptions.demandLabel, CommandOptions.plainLabel].contains(label) {
        guard case .bool(let flag) = argument.value.kind else {
          _ = fail("'\(label):' is true or false", argument.value.range)
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
        _ = fail("'\(label):' must be \(expected.text)", argument.value.range)
        return nil
      }
    }
    // The plain form leaves out every check of pipesh's, checked arithmetic too.
    if read.plain && read.checked,
      let plain = arguments.first(where: { $0.label?.name == CommandOptions.plainLabel })
    {
      _ = fail(
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
      _ = fail(
        "'dialect: rxjs' draws text lanes only; it does not go with \(CommandOptions.usage(other.label?.name ?? ""))",
        other.range)
      return nil
    }
    return read
  }

  mutating func failure() -> CommandArguments? {
    guard arguments.count == 2, let channel = Self.word(arguments[0]), arguments[1].label == nil,
      case .string(let parts) = arguments[1].value.kind, parts.count == 1, case .text(let message) = parts[0]
    else { return fail("name the channel, then the message as a string, as in \(signature.name) user \"offline\"") }
    return .failure(channel: channel, message: message)
  }

  mutating func duration(source: SourceFile) -> CommandArguments? {
    guard arguments.count == 1, arguments[0].label == nil else { return fail("give one duration, as in 2.5 or 250ms") }
    switch Checker.duration(arguments[0].value, zero: false, source: source) {
    case .success(let duration): return .duration(duration)
    case .failure(let expected):
      return fail("INTERVAL must be \(expected.text)", arguments[0].range)
    }
  }

  private mutating func integers() -> [Int]? {
    var values: [Int] = []
    for argument in arguments {
      guard argument.label == nil, case .integer(let value) = argument.value.kind else {
        _ = fail("expected a job number", argument.range)
        return nil
      }
      values.append(value)
    }
    return values
  }
}

/// What a command reads after its pipeline: labelled durations, and where a picture goes.
public struct CommandOptions: Sendable {
  /// The label of the picture's file: `to: "FILE.svg"`.
  public static let fileLabel = "to"
  /// The label of `step`'s time to run to: `until: 5`.
  public static let untilLabel = "until"
  /// The label of `swift`'s choice of checked arithmetic: `checked: true`.
  public static let checkedLabel = "checked"
  /// The label of `swift`'s plain form, without pipesh's per-element checks: `plain: true`.
  public static let plainLabel = "plain"
  /// The label of `draw`'s demand lines: `demand: true`.
  public static let demandLabel = "demand"
  /// The label of `draw`'s notation: `dialect: rxjs`.
  public static let dialectLabel = "dialect"
  public var durations: [String: Duration] = [:]
  /// `checked: true`: the Swift keeps pipesh's checked Int arithmetic.
  public var checked = false
  /// `plain: true`: the Swift leaves out pipesh's per-element checks (checked arithmetic, checked
  /// arguments worked out from `$0`), for pasting into an app.
  public var plain = false
  /// `demand: true`: `draw` adds, under each lane, when its consumer's request was outstanding.
  public var demand = false
  /// `dialect: rxjs`: `draw` writes its lanes in RxJS's marble notation.
  public var dialect = MarbleDialect.aa
  /// `to: "FILE"`: write a picture there instead of drawing text: a web page when the name ends in
  /// `.html`, else an SVG picture.
  public var file: String?

  /// Whether `file` asks for a web page.
  public var wantsPage: Bool { file?.lowercased().hasSuffix(".html") ?? false }

  public init() {}

  public subscript(name: String) -> Duration? { durations[name] }

  /// How usage writes an option: `tick: D`, `to: "F.svg"`.
  static func usage(_ name: String) -> String {
    switch name {
    case fileLabel: "to: \"F.svg\"|\"F.html\""
    case checkedLabel: "checked: true"
    case plainLabel: "plain: true"
    case demandLabel: "demand: true"
    case dialectLabel: "dialect: aa|rxjs"
    default: "\(name): D"
    }
  }
}
