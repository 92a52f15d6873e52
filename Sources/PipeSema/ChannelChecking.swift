import PipeSyntax

/// The channel stages (`channel`, `into`, `stream`, `subject`): what a name is, and the type it carries.
extension Checker {
  /// `channel NAME` gets its type from the environment or `of:`; `into NAME` fixes it.
  mutating func typeChannel(
    _ end: ChannelEnd, _ typing: inout StageTyping, _ output: ValueType?
  )
    -> ValueType?
  {
    guard let name = typing.name(end.name) else { return nil }
    guard declare(end, name, &typing) else { return nil }
    if case .subject(_, let initial) = end { return typeSubject(name, initial, &typing) }
    if case .receiving(_, _, let throwing) = end, let word = typing.name(throwing) {
      guard word == throwing.name else {
        typing.error("after the channel's type only 'throws' may stand, not '\(word)'", at: throwing)
        return nil
      }
      environment.failingChannels.insert(name)
    }
    let known = environment.channels[name]
    let declaredType: Parameter? =
      switch end {
      case .receiving(_, let of, _), .stream(_, let of): of
      case .sending, .subject: nil
      }
    guard let of = declaredType else {
      if let known, ValueType.join(known, typing.input) != known {
        typing.error("channel '\(name)' carries '\(known)', but the elements are '\(typing.input)'")
        return nil
      }
      if known == nil { environment.channels[name] = typing.input }
      return output
    }
    if case .type(let declared) = typing.argument(of) {
      if let known, known != declared, !environment.guessedChannels.contains(name) {
        let noun = if case .stream = end { "stream" } else { "channel" }
        typing.error("\(noun) '\(name)' already carries '\(known)'", at: of)
        return nil
      }
      environment.channels[name] = declared
      environment.guessedChannels.remove(name)
      return declared
    }
    guard let known else {
      let noun = if case .stream = end { "stream" } else { "channel" }
      typing.diagnostics.append(SemaMessages.channelTypeUnknown(name, typing.range(of: end.name), noun: noun))
      return nil
    }
    return known
  }

  /// What `name` is (a channel, a stream, a subject) is fixed by its first source: a stage that
  /// uses it as something else is an error. A stream or subject is recorded for the session.
  private mutating func declare(_ end: ChannelEnd, _ name: String, _ typing: inout StageTyping) -> Bool {
    let wanted: String
    switch end {
    case .receiving, .sending: wanted = "channel"
    case .stream: wanted = "stream"
    case .subject: wanted = "subject"
    }
    let isChannel =
      environment.plainChannels.contains(name)
      || (environment.channels[name] != nil && !environment.guessedChannels.contains(name))
    let current = environment.endpoints[name]?.noun ?? (isChannel ? "channel" : nil)
    if let current, current != wanted {
      let use =
        switch end {
        case .sending: "'into' sends only into a channel"
        case .receiving, .stream, .subject: "a name is one channel, stream or subject"
        }
      typing.error("'\(name)' is a \(current): \(use); write '\(current) \(name)' to read it, or use another name")
      return false
    }
    if wanted == "channel" { environment.plainChannels.insert(name) }
    // A later `stream NAME` without `buffering:` reads the stream as it was declared.
    if case .stream = end, environment.endpoints[name] == nil || typing.name(Catalogue.Stream.buffering) != nil {
      let arguments = ArgumentReader<Resolved>(typing.checked, body: nil)
      let buffering = try? arguments.buffering(Catalogue.Stream.buffering, count: Catalogue.Stream.count)
      environment.endpoints[name] = .stream(buffering ?? .unbounded)
    }
    return true
  }

  /// `subject NAME initial: V`: typed by its initial value, which a later `subject NAME` reads.
  private mutating func typeSubject(_ name: String, _ initial: Parameter, _ typing: inout StageTyping) -> ValueType? {
    guard let (value, type) = typing.value(initial) else {
      guard case .subject(let value)? = environment.endpoints[name], let type = environment.channels[name] else {
        typing.error("give subject '\(name)' its current value first: 'subject \(name) initial: V'", at: initial)
        return nil
      }
      typing.set(initial, .value(value, type))
      return type
    }
    guard type != .optional(.never) else {
      typing.error("nil has no type here: give subject '\(name)' a value that is not nil", at: initial)
      return nil
    }
    if let known = environment.channels[name], known != type, !environment.guessedChannels.contains(name) {
      typing.error("subject '\(name)' already carries '\(known)'", at: initial)
      return nil
    }
    environment.channels[name] = type
    environment.guessedChannels.remove(name)
    environment.endpoints[name] = .subject(initial: value)
    return type
  }
}
