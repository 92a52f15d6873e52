import PipeSyntax

/// What a command's `check` reads its arguments with: a method per form of `CommandForm`, each
/// giving the form's arguments typed, or nil once it has reported what is wrong with them (where,
/// and the command's usage). A method reads the form the command's signature declares; called for
/// another form it reports that as pipesh's bug (the test that checks every command's help
/// example finds it).
public struct CommandReader {
  var checker: Checker
  var reading: CommandReading
  /// The pipeline the parser read after the command's name, if it read one.
  let parsed: Pipeline?

  public var signature: CommandSignature { reading.signature }

  /// A command read in a form other than its signature's: pipesh's bug, reported as one.
  private mutating func misdeclared<Read>(_ method: String) -> Read? {
    reading.fail("pipesh reads \(signature.name) with \(method), not in its declared form (a bug: please report it)")
  }

  /// `.bare`: nothing.
  public mutating func bare() -> Void? {
    guard case .bare = signature.form else { return misdeclared("bare()") }
    return reading.bare()
  }

  /// `.jobs(all: false, …)`: the job numbers given, none when none are.
  public mutating func jobs() -> [Int]? {
    guard case .jobs(all: false, let missing) = signature.form else { return misdeclared("jobs()") }
    if let missing, reading.arguments.isEmpty { return reading.fail(missing) }
    return reading.integers()
  }

  /// `.jobs(all: true, …)`: the job numbers given, or nil for the word `all`.
  public mutating func jobsOrAll() -> [Int]?? {
    guard case .jobs(all: true, let missing) = signature.form else { return misdeclared("jobsOrAll()") }
    if reading.arguments.count == 1, CommandReading.word(reading.arguments[0]) == "all" { return .some(nil) }
    if let missing, reading.arguments.isEmpty { return reading.fail(missing) }
    return reading.integers().map { .some($0) }
  }

  /// `.job`: one job number.
  public mutating func job() -> Int? {
    guard case .job = signature.form else { return misdeclared("job()") }
    return reading.job()
  }

  /// Whether the first argument is a string: a saved trace's file where a job number could be
  /// (`tasks "F.trace"`, `why "F.trace" FROM TO`).
  public var startsWithString: Bool { reading.startsWithString }

  /// One saved trace's file, alone, where job numbers could be: `tasks "run.trace"`.
  public mutating func savedTraceAlone() -> String? {
    guard case .jobs = signature.form else { return misdeclared("savedTraceAlone()") }
    return reading.savedTraceAlone()
  }

  /// Whether the arguments are job numbers and then the word `all` (`tasks 1 2 all`).
  public var endsWithAll: Bool {
    reading.arguments.count > 1 && reading.arguments.last.flatMap(CommandReading.word) == "all"
  }

  /// The job numbers before a last word `all`.
  public mutating func jobsBeforeAll() -> [Int]? {
    guard case .jobs = signature.form else { return misdeclared("jobsBeforeAll()") }
    var rest = CommandReading(
      signature: signature, arguments: Array(reading.arguments.dropLast()), range: reading.range)
    defer { reading.diagnostics += rest.diagnostics }
    return rest.integers()
  }

  /// A saved probe trace's file and two of its lanes: `why "F.trace" FROM TO`.
  public mutating func traceLanes() -> (path: String, from: String, to: String)? {
    guard case .job = signature.form else { return misdeclared("traceLanes()") }
    return reading.traceLanes()
  }

  /// `.pipeline(…, savedTrace: false)`: the checked pipeline and the options after it.
  public mutating func pipeline() -> (pipeline: CheckedPipeline, options: CommandOptions)? {
    guard case .pipeline(let partial, let options, savedTrace: false) = signature.form else {
      return misdeclared("pipeline()")
    }
    guard let parsed else { return reading.fail("expected a pipeline") }
    return read(parsed, partial: partial, options: options)
  }

  /// A pipeline, or a saved trace's file in its place: `draw "F.trace"`.
  public enum PipelineOrTrace: Sendable {
    case pipeline(CheckedPipeline, CommandOptions)
    case savedTrace(String, CommandOptions)
  }

  /// `.pipeline(…, savedTrace: true)`: the checked pipeline, or a saved trace's file, and the
  /// options after it.
  public mutating func pipelineOrSavedTrace() -> PipelineOrTrace? {
    guard case .pipeline(let partial, let options, savedTrace: true) = signature.form else {
      return misdeclared("pipelineOrSavedTrace()")
    }
    guard let parsed else {
      return reading.savedTrace(options, source: checker.source).map { .savedTrace($0.path, $0.options) }
    }
    return read(parsed, partial: partial, options: options).map { .pipeline($0.pipeline, $0.options) }
  }

  private mutating func read(
    _ pipeline: Pipeline, partial: Bool, options: [String]
  ) -> (pipeline: CheckedPipeline, options: CommandOptions)? {
    let checked =
      partial
      ? (checker.withinExpansionLimits(pipeline) ? checker.checkPipeline(pipeline, input: nil, allowSink: true) : nil)
      : checker.checkTopLevel(pipeline)
    if let ambiguous = checker.ambiguousOption(reading.arguments, after: pipeline, command: signature.name) {
      return reading.fail(ambiguous.message, ambiguous.range)
    }
    let optionValues = reading.options(options, source: checker.source)
    if let checked, let token = optionValues?.order, !token.fits(checked),
      let argument = reading.arguments.first(where: { $0.label?.name == CommandOptions.orderLabel })
    {
      return reading.fail(
        "this order: was made for another pipeline (explore this one for its orders)", argument.value.range)
    }
    guard let checked, let optionValues else { return nil }
    return (checked, optionValues)
  }

  /// `.values`: a channel and the constants sent to it (`send c 1 2`).
  public mutating func values() -> (channel: String, values: [Value])? {
    guard case .values = signature.form else { return misdeclared("values()") }
    return checker.checkSend(&reading)
  }

  /// `.word`: the word, one of the form's choices when it has them; "" for none where the word is
  /// optional (`clock`).
  public mutating func word() -> String? {
    guard case .word(let choices, let missing, let optional) = signature.form else { return misdeclared("word()") }
    if optional && reading.arguments.isEmpty { return "" }
    guard let word = reading.word(choices: choices, missing: missing), checker.knows(channel: word, &reading)
    else { return nil }
    return word
  }

  /// `.topic`: the command, topic or operator named, or nil for none (`help`).
  public mutating func topic() -> String?? {
    guard case .topic = signature.form else { return misdeclared("topic()") }
    return checker.checkTopic(&reading)
  }

  /// `.file`: the file's name.
  public mutating func file() -> String? {
    guard case .file = signature.form else { return misdeclared("file()") }
    return reading.file()
  }

  /// `.optionalJob`: a job number or nil, and a time or nil (`step 2 until: 5`).
  public mutating func optionalJob() -> (job: Int?, until: Duration?)? {
    guard case .optionalJob(let label) = signature.form else { return misdeclared("optionalJob()") }
    return reading.optionalJob(label: label, source: checker.source)
  }

  /// `.recording`: a saved trace's file, and a playback speed (nil: at once) or stepping.
  public mutating func recording() -> (path: String, speed: Double?, step: Bool)? {
    guard case .recording = signature.form else { return misdeclared("recording()") }
    return reading.recording()
  }

  /// `.duration`: one duration, more than zero.
  public mutating func duration() -> Duration? {
    guard case .duration = signature.form else { return misdeclared("duration()") }
    return reading.duration(source: checker.source)
  }

  /// `.failure`: a channel that can fail, and the message.
  public mutating func failure() -> (channel: String, message: String)? {
    guard case .failure = signature.form else { return misdeclared("failure()") }
    return checker.checkFailure(&reading)
  }

  /// `.validation`: the block, read and translated.
  public mutating func validation() -> CheckedValidation? {
    guard case .validation = signature.form else { return misdeclared("validation()") }
    return checker.checkValidation(reading.arguments, reading.range)
  }

  /// `.expectation`: the pipeline and the claim about it.
  public mutating func expectation() -> CheckedExpectation? {
    guard case .expectation(let options) = signature.form else { return misdeclared("expectation()") }
    guard let parsed else { return reading.fail("expected a pipeline") }
    return checker.checkExpectation(parsed, &reading, options: options)
  }
}
