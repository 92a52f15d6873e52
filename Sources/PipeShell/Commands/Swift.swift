import PipeExport
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Commands {
  /// `swift PIPELINE`: the Swift code, over swift-async-algorithms, that does what the pipeline does.
  struct Swift: ShellCommand {
    static let signature = CommandSignature(
      "swift", .pipeline(partial: false, options: [CommandOptions.checkedLabel, CommandOptions.plainLabel]),
      usage: "swift PIPELINE [checked: true|plain: true]",
      summary:
        "prints the Swift code (over swift-async-algorithms) that does what a pipeline does, to paste into an async function, with only the helpers it uses: Swift's own Int arithmetic, and arguments worked out from $0 in a flatMap body checked as pipesh checks them (take $0 fails the job on -1); checked: true keeps pipesh's checked arithmetic too (overflow fails the job); plain: true leaves out every check of pipesh's, for pasting into an app (as pipesh --emit-swift --plain FILE does for a whole program)"
    )
    static let example = HelpExample("swift from 1 2 3 | map { $0 * 2 } | sum")
    let pipeline: CheckedPipeline
    let options: CommandOptions

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.pipeline().map { Self(pipeline: $0.pipeline, options: $0.options) }
    }
    var reach: CommandReach { .readsPipeline(pipeline) }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      let source = SourceFile(name: nil, text: pipeline.text)
      let exported = SwiftExport.pipeline(
        pipeline, environment: shell.engine.environment, source: source, checked: options.checked,
        plain: options.plain)
      switch exported {
      case .success(let text):
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
          shell.console.line(String(line))
        }
      case .failure(let problem):
        shell.engine.commandFailed("swift: \(problem.message)")
      }
    }
  }
}

extension Shell {
  /// `pipesh --emit-swift`: checks the script as a whole and prints its Swift program; the
  /// status is 2 when it does not check or cannot be exported.
  public static func emitSwift(_ source: SourceFile, console: Console, plain: Bool = false) async -> Int32 {
    await emit(source, console: console) { statements, environment in
      SwiftExport.program(statements, environment: environment, source: source, plain: plain)
    }
  }

  /// What `pipesh --emit-swift` prints for `source`, or the first thing in its way (an error of
  /// the script's, or the export's refusal): the language server's "export as Swift" reads it.
  public static func exportedSwift(_ source: SourceFile) -> Result<String, Diagnostic> {
    let (statements, environment, diagnostics) = Engine.parseAndCheck(source, in: Environment.pipesh)
    if let first = diagnostics.first { return .failure(first) }
    return SwiftExport.program(statements, environment: environment, source: source, plain: false).map(\.text)
  }

  /// `pipesh --emit-test FILE`: the script's expectations as a Swift Testing file on standard
  /// output; what cannot be a test is said on standard error, as warnings. Each expectation that
  /// can be a test is first run in every order (as `expect … in: every order` runs it): one whose
  /// orders disagree is left out, since MarbleTesting's clock takes orders of its own.
  public static func emitTest(_ source: SourceFile, console: Console) async -> Int32 {
    await emit(source, console: console) { statements, environment in
      var verdicts: [Int: OrderVerdict] = [:]
      let testable = SwiftExport.testable(statements, environment: environment, source: source)
      if !testable.isEmpty {
        let shell = Shell(console: console, interactive: false, virtualTime: true)
        for (range, expectation) in testable {
          verdicts[range.start] = await shell.verdictInEveryOrder(expectation)
        }
        shell.engine.close()
      }
      return .success(SwiftExport.tests(statements, environment: environment, source: source, verdicts: verdicts))
    }
  }

  /// Checks the script as a whole, then prints what `export` makes of it, its warnings on standard
  /// error; a script that does not check, or an export that fails, is said there with status 2.
  private static func emit(
    _ source: SourceFile, console: Console,
    _ export: ([CheckedStatement], Environment) async -> Result<SwiftExport.Output, Diagnostic>
  ) async -> Int32 {
    let (statements, environment, diagnostics) = Engine.parseAndCheck(source, in: Environment.pipesh)
    let problems: [Diagnostic]
    if diagnostics.isEmpty {
      switch await export(statements, environment) {
      case .success(let output):
        if !output.warnings.isEmpty {
          FileOutput.error(
            DiagnosticFormatter.render(output.warnings, in: source, decorator: Paint.diagnostics(for: 2)))
        }
        for line in output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
          console.line(String(line))
        }
        console.flush()
        return 0
      case .failure(let problem): problems = [problem]
      }
    } else {
      problems = diagnostics
    }
    FileOutput.error(DiagnosticFormatter.render(problems, in: source, decorator: Paint.diagnostics(for: 2)))
    return 2
  }
}
