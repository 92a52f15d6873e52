import PipeSyntax

/// Fragments: a `let` name used as a stage is checked in place, and a source fragment with a
/// `share` becomes one shared node every use sees.
extension Checker {
  mutating func expand(
    _ binding: Binding, at stage: Stage, arguments: [Argument], input: ValueType?, isSourcePosition: Bool
  ) -> [CheckedStage]? {
    if binding.isBroken { return nil }
    if let first = arguments.first {
      diagnostics.append(
        SemaMessages.misplaced(
          "'\(binding.name)' is a fragment and takes no arguments", first.range,
          note: "fragments are named pipelines, used by name alone"))
      return nil
    }
    if binding.isSource != isSourcePosition {
      let message =
        binding.isSource
        ? "'\(binding.name)' is a source fragment and cannot follow '|'"
        : "'\(binding.name)' is an operator fragment and needs an input"
      diagnostics.append(
        SemaMessages.misplaced(message, stage.range, note: "'names' shows the fragments and what they start with"))
      return nil
    }
    var inner = Checker(environment: environment, source: binding.source)
    inner.environment.scopeLimit = binding.id
    let checked = inner.checkPipeline(binding.pipeline, input: input, allowSink: false)
    for (name, type) in inner.environment.channels where environment.channels[name] == nil {
      environment.channels[name] = type
    }
    if binding.source.text == source.text && binding.source.name == source.name {
      diagnostics.append(contentsOf: inner.diagnostics)
    } else {
      diagnostics.append(contentsOf: inner.diagnostics.map { SemaMessages.fragment(binding.name, $0, stage.range) })
    }
    guard let checked else { return nil }
    let sharing = checked.stages.firstIndex { $0.kind?.signature.sharesUpstream == true }
    guard binding.isSource, let shareIndex = sharing else {
      return checked.stages
    }
    let hot = CheckedPipeline(
      stages: Array(checked.stages[...shareIndex]), text: binding.source.displayText(of: binding.pipeline.range))
    let shared = CheckedStage(
      node: .shared(binding.id), text: binding.name, range: stage.range, inputs: [hot], outputType: hot.elementType)
    return [shared] + checked.stages[(shareIndex + 1)...]
  }
}

/// What a pipeline expands to, worked out from its syntax and its fragments' own (nothing is
/// expanded to count it).
struct Expansion {
  /// Stages, each use of a fragment counted as all of its own; saturates far past the limit.
  var stages = 0
  /// How deep fragments use fragments: a fragment that uses none is 1.
  var depth = 0
  /// How deep pipelines nest in each other (groups, combinators' inputs, flatMap bodies), a use of
  /// a fragment counted as its own: a pipeline with none of them is 1. One statement's syntax is
  /// bounded by the parser; fragments that nest in fragments are bounded here.
  var levels = 1
  /// Whether it uses a fragment whose definition was reported: nothing more is said then.
  var usesBroken = false
}

extension Checker {
  /// The most stages a statement may expand to, fragments included.
  public static let maximumStages = 10_000
  /// The deepest chain of fragments using fragments (each level is checked inside the last).
  public static let maximumFragmentDepth = 64
  /// The deepest pipelines may nest in each other, fragments included: as deep as the syntax of
  /// one statement may nest (`Parser.maximumNesting`), so that checking, running, drawing and
  /// exporting a fragment that nests fragments stay within the stack as one statement does.
  public static let maximumLevels = Parser.maximumNesting
  /// The deepest element type: tuples, arrays and optionals within each other.
  public static let maximumTypeDepth = 64

  func expansion(of pipeline: Pipeline) -> Expansion {
    var total = Expansion()
    /// Adds what `inner` expands to, nested `deeper` levels below this pipeline.
    func add(_ inner: Expansion, deeper: Int = 0) {
      total.stages = min(total.stages + inner.stages, Self.maximumStages * 1000)
      total.depth = max(total.depth, inner.depth)
      total.levels = max(total.levels, min(inner.levels + deeper, Self.maximumStages))
      total.usesBroken = total.usesBroken || inner.usesBroken
    }
    for stage in pipeline.stages {
      switch stage.kind {
      case .missing:
        add(Expansion(stages: 1))
      case .group(let inner):
        add(Expansion(stages: 1))
        add(expansion(of: inner), deeper: 1)
      case .combinator(_, let inputs):
        add(Expansion(stages: 1))
        for input in inputs { add(expansion(of: input), deeper: 1) }
      case .call(let name, let arguments):
        if let binding = environment.binding(named: name.name) {
          add(
            Expansion(
              stages: binding.stageCount, depth: binding.depth, levels: binding.levels, usesBroken: binding.isBroken))
        } else {
          add(Expansion(stages: 1))
        }
        for argument in arguments {
          if case .pipeline(let body) = argument.value.kind { add(expansion(of: body), deeper: 1) }
        }
      }
    }
    return total
  }

  /// Reports a pipeline that expands to more than `maximumStages` stages or uses fragments
  /// nested deeper than `maximumFragmentDepth`; true when it does neither.
  mutating func withinExpansionLimits(_ pipeline: Pipeline) -> Bool {
    let expansion = expansion(of: pipeline)
    if expansion.usesBroken { return true }
    if expansion.stages > Self.maximumStages {
      report(SemaMessages.tooManyStages(expansion.stages, pipeline.range))
      return false
    }
    if expansion.depth > Self.maximumFragmentDepth {
      report(SemaMessages.fragmentsTooDeep(expansion.depth, pipeline.range))
      return false
    }
    if expansion.levels > Self.maximumLevels {
      report(SemaMessages.pipelinesTooDeep(expansion.levels, pipeline.range))
      return false
    }
    return true
  }
}
