import PipeSyntax

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
      if let checked, let token = optionValues?.order, !token.fits(checked),
        let argument = arguments.first(where: { $0.label?.name == CommandOptions.orderLabel })
      {
        read = reading.fail(
          "this order: was made for another pipeline (explore this one for its orders)", argument.value.range)
        break
      }
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
