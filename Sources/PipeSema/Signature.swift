import PipeSyntax

/// Where a stage may stand.
public enum OperatorRole: String, Sendable {
  /// Starts a pipeline.
  case source
  /// Starts a pipeline from other pipelines: `merge(P, P)`.
  case combinator
  /// Stands after `|` and passes elements on.
  case `operator`
  /// Ends a pipeline and prints its result.
  case sink
}

/// What an argument must be.
public enum ParameterKind: Sendable, Hashable {
  /// An integer literal.
  case int
  /// An integer literal, 0 or more.
  case count
  /// An integer literal, 1 or more (`chunks 0` would never emit).
  case positiveCount
  /// An Int or Double literal.
  case number
  /// A duration (`250ms`) or a number of seconds, more than zero.
  case duration
  /// A duration that may be zero, where swift-async-algorithms defines it (`throttle 0`).
  case durationOrZero
  case string
  case bool
  /// Any constant: number, string, Bool, nil, array, tuple.
  case value
  /// `{ … }`
  case closure
  /// `{ PIPELINE }`, run per element with `$0` standing for it (`flatMap`).
  case pipeline
  /// `( PIPELINE )` after the parameter's label: a sequence the stage reads beside its upstream,
  /// of any element type (`chunked by: (timer 1)`, a signal); the stage's input.
  case sequence
  /// A bare word: a channel name, a policy.
  case name
  /// A type name: `Int`, `Double`, `String`, `Bool`.
  case typeName
}

/// One argument an operator takes.
public struct Parameter: Sendable {
  public let name: String
  /// The label, or nil for a positional argument.
  public let label: String?
  public let kind: ParameterKind
  public let isOptional: Bool
  /// Takes all remaining positional arguments (`from V…`).
  public let repeats: Bool
  /// Bare words also accepted, as strings (`buffer unbounded`).
  public let words: [String]
  public let help: String

  public static func positional(
    _ name: String, _ kind: ParameterKind, optional: Bool = false, repeats: Bool = false, words: [String] = [],
    _ help: String
  ) -> Parameter {
    Parameter(name: name, label: nil, kind: kind, isOptional: optional, repeats: repeats, words: words, help: help)
  }

  /// How messages name it: `'every:'` for a labelled one, `COUNT` for a positional one.
  public var shownName: String { label.map { "'\($0):'" } ?? name.uppercased() }

  public static func labelled(_ label: String, _ kind: ParameterKind, _ help: String) -> Parameter {
    Parameter(name: label, label: label, kind: kind, isOptional: true, repeats: false, words: [], help: help)
  }
}

/// A checked argument value.
public enum CheckedArgument: Sendable, Hashable {
  case value(Value, ValueType)
  case values([Value], ValueType)
  case duration(Duration)
  case closure(TypedExpr)
  case name(String)
  case type(ValueType)
  case marble(MarbleDiagram)
  /// An argument worked out per element from `$0`, in the body of `flatMap { … }`.
  case deferred(TypedExpr)
  /// Repeated arguments (`from $0 ($0 * 10)`) some of which are worked out per element, and
  /// the type they have in common.
  case deferredValues([TypedExpr], ValueType)
  /// A `( PIPELINE )` argument, checked: the pipeline is the stage's input (`CheckedStage.inputs`).
  case sequence
}

/// How an operator's element type follows from its input and arguments; it reports what is wrong
/// through `StageTyping` and returns nil then.
public typealias TypingRule = @Sendable (inout StageTyping) -> ValueType?

/// Which end of a channel a stage is: its type is kept per channel name across the session.
public enum ChannelEnd: Sendable {
  /// `channel NAME [of: TYPE] [throws]`: emits what is sent; its type comes from the session or
  /// `of:`; `throws` makes it an `AsyncThrowingChannel` from the start.
  case receiving(name: Parameter, of: Parameter, throwing: Parameter)
  /// `into NAME`: sends its input; fixes the channel's type.
  case sending(name: Parameter)
  /// `stream NAME [of: TYPE] [buffering: …]`: an `AsyncStream` fed by `send`; typed as a channel.
  case stream(name: Parameter, of: Parameter)
  /// `subject NAME initial: V`: a current value; its type is the initial value's.
  case subject(name: Parameter, initial: Parameter)

  /// The parameter that names the channel.
  var name: Parameter {
    switch self {
    case .receiving(let name, _, _), .sending(let name), .stream(let name, _), .subject(let name, _): name
    }
  }
}

/// What a name `send` and `close` reach is, when it is not an `AsyncChannel`: declared by the
/// source that reads it, and made so by the session from the start.
public enum Endpoint: Sendable, Hashable {
  /// `stream NAME`: an `AsyncStream` and its continuation.
  case stream(StreamBuffering)
  /// `subject NAME initial: V`: pipesh's current value.
  case subject(initial: Value)

  /// How messages name it.
  public var noun: String {
    switch self {
    case .stream: "stream"
    case .subject: "subject"
    }
  }
}

/// An `AsyncStream`'s buffering policy: what `yield` does when the consumer is behind.
public enum StreamBuffering: Sendable, Hashable, CustomStringConvertible {
  /// Keeps everything (`.unbounded`).
  case unbounded
  /// Keeps the newest N, dropping the oldest (`.bufferingNewest(N)`).
  case newest(Int)
  /// Keeps the oldest N, dropping what comes after (`.bufferingOldest(N)`).
  case oldest(Int)

  /// The words that name a policy.
  public static let words = ["unbounded", "newest", "oldest"]

  /// As written: `newest 2`.
  public var description: String {
    switch self {
    case .unbounded: "unbounded"
    case .newest(let count): "newest \(count)"
    case .oldest(let count): "oldest \(count)"
    }
  }
}

/// The signature of an operator: how it is written, what it takes, how it types, and the text
/// `help` shows. It is part of the operator's registry entry, beside the way the runtime builds it.
public struct OperatorSignature: Sendable {
  public let kind: OperatorKind
  public let role: OperatorRole
  public let usage: String
  public let summary: String
  public let parameters: [Parameter]
  /// For combinators: how many input pipelines.
  public let inputCount: ClosedRange<Int>
  public let example: String
  /// Whether `help` may run the example to show its output.
  public let exampleRuns: Bool
  /// The implementation the node compiles to.
  public let implementation: String
  /// Whether the stage is one end of a channel.
  public let channel: ChannelEnd?
  /// Whether, in a `let` source fragment, the part up to and including this stage is built once
  /// and shared by every use (`share`).
  public let sharesUpstream: Bool
  let typing: TypingRule

  public init(
    _ kind: OperatorKind, _ role: OperatorRole, usage: String, summary: String, parameters: [Parameter] = [],
    inputs: ClosedRange<Int> = 0...0, example: String, exampleRuns: Bool = true, implementation: String,
    channel: ChannelEnd? = nil, sharesUpstream: Bool = false, typing: @escaping TypingRule
  ) {
    self.kind = kind
    self.role = role
    self.usage = usage
    self.summary = summary
    self.parameters = parameters
    self.inputCount = inputs
    self.example = example
    self.exampleRuns = exampleRuns
    self.implementation = implementation
    self.channel = channel
    self.sharesUpstream = sharesUpstream
    self.typing = typing
  }

  /// The name a pipeline writes.
  public var name: String { kind.name }
}

/// The operators the checker checks against, by name; aliases (`scan`) resolve to their operator.
public struct SignatureTable: Sendable {
  /// In the order `ops` lists them.
  public let all: [OperatorSignature]
  public let byName: [String: OperatorSignature]
  /// Names `help` and completion know, aliases included.
  public let names: [String]

  public init(_ signatures: [OperatorSignature], aliases: [String: OperatorKind] = [:]) {
    all = signatures
    var table: [String: OperatorSignature] = [:]
    for signature in signatures { table[signature.name] = signature }
    for (alias, kind) in aliases.sorted(by: { $0.key < $1.key }) { table[alias] = table[kind.name] }
    byName = table
    names = signatures.map(\.name) + aliases.keys.sorted()
  }

  public subscript(name: String) -> OperatorSignature? { byName[name] }

  /// The stages whose `{ … }` is a pipeline run per element (`flatMap`, `flatMapLatest`).
  public var pipelineClosures: [String] {
    all.filter { $0.parameters.contains { $0.kind == .pipeline } }.map(\.name)
  }

  /// The labels whose `( … )` is a pipeline, by stage (`chunked`: `by`).
  public var pipelineArguments: [String: Set<String>] {
    var labels: [String: Set<String>] = [:]
    for signature in all {
      let sequences = signature.parameters.filter { $0.kind == .sequence }.compactMap(\.label)
      if !sequences.isEmpty { labels[signature.name] = Set(sequences) }
    }
    return labels
  }
}

/// What an operator's typing rule sees: the input type, the bound arguments, and a place to report.
public struct StageTyping {
  public let name: String
  public let input: ValueType
  /// Element types of a combinator's inputs.
  public let inputs: [ValueType]
  let stageRange: SourceRange
  let usage: String
  var syntax: [String: Argument]
  var checked: [String: CheckedArgument] = [:]
  var diagnostics: [Diagnostic] = []
  /// What each diagnostic the rule reported about the stage says without the stage's name in front
  /// (`must be 1 or more`, of `take: must be 1 or more`): an argument worked out per element is
  /// reported with the stage as written there instead (`PerElement`).
  private(set) var unnamed: [Diagnostic: String] = [:]

  /// Whether the argument was given.
  public func has(_ parameter: Parameter) -> Bool {
    checked[parameter.name] != nil || syntax[parameter.name] != nil
  }

  /// The checked argument, when it was given and is well-formed.
  public func argument(_ parameter: Parameter) -> CheckedArgument? { checked[parameter.name] }

  public func int(_ parameter: Parameter) -> Int? {
    if case .value(.int(let value), _) = checked[parameter.name] { return value }
    return nil
  }

  public func value(_ parameter: Parameter) -> (Value, ValueType)? {
    if case .value(let value, let type) = checked[parameter.name] { return (value, type) }
    return nil
  }

  /// The argument's type, whether it is a constant or worked out per element from `$0`.
  public func type(of parameter: Parameter) -> ValueType? {
    switch checked[parameter.name] {
    case .value(_, let type), .values(_, let type), .deferredValues(_, let type): type
    case .deferred(let expr): expr.type
    default: nil
    }
  }

  /// Whether the argument is worked out per element, so its value is checked only then.
  public func isDeferred(_ parameter: Parameter) -> Bool {
    checked[parameter.name]?.isDeferred ?? false
  }

  /// The element type of the `{ PIPELINE }` argument's pipeline.
  public internal(set) var body: ValueType?

  public func name(_ parameter: Parameter) -> String? {
    if case .name(let name) = checked[parameter.name] { return name }
    return nil
  }

  /// Where the argument stands, or the stage when it was not given.
  public func range(of parameter: Parameter) -> SourceRange { syntax[parameter.name]?.range ?? stageRange }

  /// Reports a problem with the stage or one of its arguments.
  public mutating func error(_ message: String, at parameter: Parameter? = nil) {
    let range = parameter.map { self.range(of: $0) } ?? stageRange
    report(SemaMessages.wrongArgument(name, message, range, usage: usage), unnamed: message)
  }

  /// Reports a diagnostic of the operator's own; `unnamed` is its message without the stage's name
  /// in front, when its message starts with it (`marble: …`).
  public mutating func report(_ diagnostic: Diagnostic, unnamed message: String? = nil) {
    diagnostics.append(diagnostic)
    if let message { unnamed[diagnostic] = message }
  }

  /// Type-checks the closure argument `parameter` with `$0`, `$1` of the given types.
  public mutating func closure(_ parameter: Parameter, _ argumentTypes: [ValueType]) -> TypedExpr? {
    guard let argument = syntax[parameter.name], case .closure(let body, let names) = argument.value.kind else {
      // Checked before: the stage is checked again with its per-element arguments worked out.
      if case .closure(let typed) = checked[parameter.name] { return typed }
      return nil
    }
    if !names.isEmpty, names.count != argumentTypes.count, let first = names.first, let last = names.last {
      diagnostics.append(
        SemaMessages.closureParameterCount(names, expected: argumentTypes.count, first.range.union(last.range)))
      return nil
    }
    // `_` names no parameter, so it may stand for several (`{ _, _ in true }`, as in Swift).
    if let duplicate = names.enumerated().first(where: { index, name in
      name.name != "_" && names.prefix(index).contains { $0.name == name.name }
    }) {
      diagnostics.append(SemaMessages.duplicateClosureParameter(duplicate.element.name, duplicate.element.range))
      return nil
    }
    var checker = ExpressionChecker(argumentTypes: argumentTypes, parameters: names)
    let typed = checker.check(body)
    diagnostics.append(contentsOf: checker.diagnostics)
    if let typed { checked[parameter.name] = .closure(typed) }
    return typed
  }

  /// Replaces a checked argument, as after promoting its type.
  public mutating func set(_ parameter: Parameter, _ argument: CheckedArgument) {
    checked[parameter.name] = argument
  }
}
