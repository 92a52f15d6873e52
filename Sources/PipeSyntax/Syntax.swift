/// A name as written, with its place.
public struct Identifier: Sendable, Hashable {
  public let name: String
  public let range: SourceRange

  public init(_ name: String, _ range: SourceRange) {
    self.name = name
    self.range = range
  }
}

/// An expression: an argument value or the body of a closure.
public struct Expr: Sendable, Hashable {
  public indirect enum Kind: Sendable, Hashable {
    case integer(Int)
    case float(Double)
    case duration(Duration)
    case string([StringPart])
    case bool(Bool)
    case nilLiteral
    /// `$0`, `$1`
    case dollar(Int)
    /// A bare word: a function name, a policy (`newest`), a channel name.
    case name(String)
    case unary(String, Expr)
    case binary(String, Expr, Expr)
    case ternary(Expr, Expr, Expr)
    /// `e.count`, `e.joined`
    case member(Expr, Identifier)
    /// `e.0`
    case tupleIndex(Expr, Int)
    /// `e[i]`
    case subscripted(Expr, Expr)
    /// `f(a, label: b)`
    case call(Expr, [Argument])
    case array([Expr])
    case tuple([Expr])
    /// `{ body }`, or `{ x in body }`, `{ acc, x in body }` with named parameters (empty for `$0`).
    case closure(Expr, parameters: [Identifier])
    /// `{ PIPELINE }`: the body of `flatMap` and `flatMapLatest`, a pipeline per element, in whose
    /// arguments `$0` stands for the element; or `( PIPELINE )` after a label that takes a sequence
    /// (`chunked by: (timer 1)`), a pipeline the stage reads beside its upstream.
    case pipeline(Pipeline)
    /// The text between a command's braces, taken as written, not read as pipesh
    /// (`validate { … }` holds swift-async-algorithms' Swift); the expression's range is the braces'.
    case verbatim(String)
    /// Inserted by the parser where an expression was expected and none was found.
    case missing
  }

  public let kind: Kind
  public let range: SourceRange

  public init(_ kind: Kind, _ range: SourceRange) {
    self.kind = kind
    self.range = range
  }
}

extension Expr {
  /// Whether `$0` or `$1`, or a string interpolation, stands in it outside a closure of its own:
  /// such an argument is worked out per element (in the body of `flatMap { … }`), not once.
  public var mentionsArgument: Bool {
    switch kind {
    case .dollar: true
    case .integer, .float, .duration, .bool, .nilLiteral, .name, .closure, .pipeline, .verbatim, .missing: false
    case .string(let parts):
      parts.contains { part in
        if case .interpolation = part { return true }
        return false
      }
    case .unary(_, let operand): operand.mentionsArgument
    case .binary(_, let left, let right): left.mentionsArgument || right.mentionsArgument
    case .ternary(let condition, let yes, let no):
      condition.mentionsArgument || yes.mentionsArgument || no.mentionsArgument
    case .member(let base, _), .tupleIndex(let base, _): base.mentionsArgument
    case .subscripted(let base, let index): base.mentionsArgument || index.mentionsArgument
    case .call(let function, let arguments):
      function.mentionsArgument || arguments.contains { $0.value.mentionsArgument }
    case .array(let elements), .tuple(let elements): elements.contains { $0.mentionsArgument }
    }
  }
}

/// A piece of a string literal.
public enum StringPart: Sendable, Hashable {
  case text(String)
  case interpolation(Expr)
}

/// An argument of an operator or a call: `2`, `latest: false`, `{ $0 * 2 }`.
public struct Argument: Sendable, Hashable {
  public let label: Identifier?
  public let value: Expr
  public let range: SourceRange

  public init(label: Identifier?, value: Expr, range: SourceRange) {
    self.label = label
    self.value = value
    self.range = range
  }
}

/// `SOURCE ( | STAGE )*`: `stages[0]` is the source.
public struct Pipeline: Sendable, Hashable {
  public let stages: [Stage]
  public let range: SourceRange

  public init(stages: [Stage], range: SourceRange) {
    self.stages = stages
    self.range = range
  }
}

/// One stage of a pipeline.
public struct Stage: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// `NAME ARG…`: an operator, source, sink or fragment name.
    case call(Identifier, [Argument])
    /// `NAME(P, P, …)`: a combinator.
    case combinator(Identifier, [Pipeline])
    /// `( PIPELINE )`
    case group(Pipeline)
    /// Inserted by the parser where a stage was expected.
    case missing
  }

  public let kind: Kind
  public let range: SourceRange

  public init(_ kind: Kind, _ range: SourceRange) {
    self.kind = kind
    self.range = range
  }

  /// The stage's name, for calls and combinators.
  public var name: Identifier? {
    switch kind {
    case .call(let name, _), .combinator(let name, _): name
    case .group, .missing: nil
    }
  }
}

/// A statement of a script or a line typed at the prompt.
public struct Statement: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// `PIPELINE` or `PIPELINE &`
    case run(Pipeline, background: Bool)
    /// `let NAME = FRAGMENT`
    case binding(Identifier, Pipeline)
    /// A shell command: `jobs`, `cancel 2`, `trace PIPELINE`…
    case command(Identifier, [Argument], Pipeline?)
  }

  public let kind: Kind
  public let range: SourceRange

  public init(_ kind: Kind, _ range: SourceRange) {
    self.kind = kind
    self.range = range
  }
}

/// A parsed script: its statements and every diagnostic found.
public struct Script: Sendable {
  public let source: SourceFile
  public let statements: [Statement]
  public let diagnostics: [Diagnostic]
}
