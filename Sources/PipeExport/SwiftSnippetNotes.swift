import PipeSema
import PipeSyntax

/// What a snippet says about the APIs it uses, as comments at its top.
enum SnippetNote {
  static func notes(for pipeline: CheckedPipeline) -> [String] {
    let kinds = Set(pipeline.allStages.compactMap(\.kind))
    var notes: [String] = []
    if kinds.contains(.share) {
      notes.append("share needs macOS 15 / iOS 18: mark the code that uses it @available(macOS 15, iOS 18, *)")
    }
    if kinds.contains(.flatMapLatest) {
      notes.append(
        "flatMapLatestFixed (below) is pipesh's replacement of AA 1.1.4's flatMapLatest, which loses failures.")
      notes.append("Its Mutex needs macOS 15 / iOS 18: mark the code that uses it @available(macOS 15, iOS 18, *)")
    }
    if kinds.contains(.throttle) {
      notes.append(
        "_throttle is underscored in AsyncAlgorithms 1.1.4: its semantics are not settled and may change.")
    }
    if kinds.contains(.subject) {
      notes.append("CurrentValue (below) is pipesh's own: AsyncAlgorithms has no current-value sequence.")
    }
    return notes
  }
}

/// The `@Published` view-model case: a `combineLatest` of subjects is, in an app, a view model's
/// `@Published` properties and `combineLatest` of their publishers' `.values`. That needs Combine,
/// which pipesh cannot compile here: the export carries it as a comment.
extension SwiftProgramWriter {
  func publishedForm(of pipeline: CheckedPipeline) -> [String] {
    for stage in pipeline.allStages where stage.kind == .combineLatest {
      var properties: [String] = []
      var inputs: [String] = []
      var staged = false
      for input in stage.inputs {
        guard let first = input.stages.first, case .operation(.subject(let name, let initial)) = first.node,
          let type = environment.channels[name]
        else {
          inputs.append("/* \(input.text) */")
          continue
        }
        let property = channelName(name)
        let literal = SwiftExpression.literal(initial, type)
        properties.append("//     @Published var \(property): \(SwiftExpression.typeName(type)) = \(literal)")
        inputs.append("model.$\(property).values")
        staged = staged || input.stages.count > 1
      }
      guard !properties.isEmpty else { continue }
      var lines = [
        "// In an app, the subjects are a view model's @Published properties, and combineLatest takes",
        "// their publishers' .values (Combine's, which gives the current value first, as a subject",
        "// does; it needs Combine, so pipesh cannot compile it here). In Swift 6 import Combine with",
        "// @preconcurrency: AsyncPublisher is not Sendable, and AA's combineLatest wants Sendable inputs.",
        "//   @MainActor final class ViewModel: ObservableObject {",
      ]
      lines += properties
      lines += [
        "//   }",
        "//   let model = ViewModel()",
        "//   let latest = combineLatest(\(inputs.joined(separator: ", ")))",
      ]
      if staged { lines.append("//   (each input's stages after its subject applied to its .values, as below)") }
      return lines
    }
    return []
  }
}
