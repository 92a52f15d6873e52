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
    guard let definition = environment.commands[name.name] else {
      report(SemaMessages.commandArguments(name.name, "unknown command", range, usage: name.name))
      return nil
    }
    var reader = CommandReader(
      checker: self, reading: CommandReading(signature: definition.signature, arguments: arguments, range: range),
      parsed: pipeline)
    let command = definition.check(&reader)
    self = reader.checker
    diagnosticsAppend(reader.reading.diagnostics)
    guard let command else { return nil }
    return CheckedCommand(command: command, range: range, argumentRanges: arguments.map(\.range))
  }

  /// `send NAME V…`: the values are constants of the channel's type (the first send fixes it).
  mutating func checkSend(_ reading: inout CommandReading) -> (channel: String, values: [Value])? {
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
    return (channel, values.map { convert($0, to: type) })
  }

  /// `fail NAME "MESSAGE"`: NAME becomes an `AsyncThrowingChannel`; a stream or subject cannot fail.
  mutating func checkFailure(_ reading: inout CommandReading) -> (channel: String, message: String)? {
    guard let read = reading.failure(), knows(channel: read.channel, &reading) else { return nil }
    let channel = read.channel
    if let endpoint = environment.endpoints[channel] {
      return reading.fail(
        "'\(channel)' is a \(endpoint.noun), which cannot fail (an AsyncStream finishes without an error): "
          + "'close \(channel)' ends it; a channel declared 'channel NAME of: TYPE throws' can fail")
    }
    environment.failingChannels.insert(channel)
    return read
  }

  /// `help [NAME]`: NAME is a command, a topic, an operator, or a word of Combine's or Swift's.
  mutating func checkTopic(_ reading: inout CommandReading) -> String?? {
    let arguments = reading.arguments
    guard let first = arguments.first else { return .some(nil) }
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
    return .some(topic)
  }

  /// Whether `channel`, which a command names and does not make (`close`, `fail`), exists: a typo
  /// would otherwise leave the real channel open.
  mutating func knows(channel: String, _ reading: inout CommandReading) -> Bool {
    guard reading.signature.namesKnownChannel, environment.channels[channel] == nil else { return true }
    report(
      SemaMessages.unknownChannel(
        channel, reading.arguments.first?.range ?? reading.range, known: environment.channels.keys))
    return false
  }
}
