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
    inner.environment.bindings[binding.name] = nil  // no recursion through its own name
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
    let sharing = checked.stages.firstIndex { environment.operators[$0.name]?.sharesUpstream == true }
    guard binding.isSource, let shareIndex = sharing else {
      return checked.stages
    }
    let hot = CheckedPipeline(
      stages: Array(checked.stages[...shareIndex]), text: binding.source.text(of: binding.pipeline.range))
    let shared = CheckedStage(
      node: .shared(binding.id), role: .source, text: binding.name, range: stage.range, arguments: [:], inputs: [hot],
      inputType: nil, outputType: hot.elementType)
    return [shared] + checked.stages[(shareIndex + 1)...]
  }
}
