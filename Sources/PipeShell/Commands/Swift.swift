import PipeExport
import PipeSyntax

extension Commands {
  /// `swift PIPELINE`: the Swift code, over swift-async-algorithms, that does what the pipeline does.
  enum Swift {
    static let entry = Command.pipeline(
      "swift", usage: "swift PIPELINE",
      summary: "prints the Swift code (over swift-async-algorithms) that does what a pipeline does"
    ) { shell, pipeline, _ in
      let source = SourceFile(name: nil, text: pipeline.text)
      switch SwiftExport.pipeline(pipeline, environment: shell.environment, source: source) {
      case .success(let text):
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
          shell.console.line(String(line))
        }
      case .failure(let problem):
        shell.commandFailed("swift: \(problem.message)")
      }
    }.example("swift from 1 2 3 | map { $0 * 2 } | sum")
  }
}
