import PipeSema
import PipeSyntax

extension DiagnosticID {
  /// What the Swift program cannot say (`swift`, `--emit-swift`).
  public static let export = DiagnosticID("export")
  /// A command only pipesh has, left in the program as a comment.
  public static let exportCommand = DiagnosticID("export-command")
}

/// `pipesh --emit-swift` and the `swift` command: the Swift program, over swift-async-algorithms,
/// that does what a script or a pipeline does.
public enum SwiftExport {
  /// The exported text, and what could not be exported (pipesh-only commands, left as comments).
  public struct Output: Sendable {
    public let text: String
    public let warnings: [Diagnostic]
  }

  /// A complete `main.swift` for checked `statements` of `source`.
  /// `plain`: without pipesh's per-element checks (Swift's own Int arithmetic, arguments worked
  /// out from `$0` unchecked), to paste into an app; it prints what pipesh prints wherever those
  /// checks would not fire, and traps or goes on where they would.
  public static func program(
    _ statements: [CheckedStatement], environment: Environment, source: SourceFile, plain: Bool = false
  ) -> Result<Output, Diagnostic> {
    var writer = SwiftProgramWriter(environment: environment, source: source)
    writer.plainArithmetic = plain
    writer.plainChecks = plain
    do {
      return .success(try writer.program(statements))
    } catch {
      return .failure(Diagnostic(id: .export, message: error.message, range: error.range))
    }
  }

  /// The Swift of one pipeline, as a Swift engineer would paste it into an async throwing
  /// function: the declarations of the channels, streams and subjects it reads, the statements
  /// that build and consume it, notes where an API needs macOS 15 / iOS 18 or is underscored, and
  /// only the helpers it uses. Int arithmetic is Swift's own unless `checked` (pipesh's checked
  /// helpers, which report an overflow as the job's error). Arguments worked out from `$0` are
  /// checked as pipesh checks them unless `plain`, which leaves out every per-element check.
  public static func pipeline(
    _ pipeline: CheckedPipeline, environment: Environment, source: SourceFile, checked: Bool = false,
    plain: Bool = false
  ) -> Result<String, Diagnostic> {
    var writer = SwiftProgramWriter(environment: environment, source: source)
    writer.plainArithmetic = !checked
    writer.plainChecks = plain
    do {
      var declarations: [String] = []
      let body = try writer.consume(pipeline, declarations: &declarations, background: false)
      let channels = writer.usedChannels.sorted().compactMap { writer.declaration(ofChannel: $0, atTopLevel: true) }
      var lines = ["import AsyncAlgorithms"]
      if Support.needsMutex(writer.support) { lines.append("import Synchronization") }
      if !writer.support.isDisjoint(with: [.lines, .stdin]) {
        lines += ["#if canImport(Glibc)", "  import Glibc", "#elseif canImport(Darwin)", "  import Darwin", "#endif"]
      }
      lines.append("")
      lines += SnippetNote.notes(for: pipeline).flatMap { SwiftProgramWriter.wrapped("// " + $0) }
      lines += writer.publishedForm(of: pipeline).flatMap(SwiftProgramWriter.wrapped)
      // What is sent into must be declared where the senders reach it too: apart, above.
      if !channels.isEmpty { lines += channels + ["", "// In an async throwing function:"] }
      if writer.support.contains(.timestamp) { lines.append("let origin = ContinuousClock.now") }
      lines += writer.scriptDeclarations + declarations + body
      for definition in Support.definitions(writer.support) { lines += ["", definition] }
      return .success(lines.joined(separator: "\n"))
    } catch {
      return .failure(Diagnostic(id: .export, message: error.message, range: error.range))
    }
  }
}
