import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Commands {
  /// `lint`: the running jobs' warnings, each with why and what to do.
  struct Lint: ShellCommand {
    static let signature = CommandSignature(
      "lint", .bare,
      summary:
        "lists the warnings about running jobs, each with why and what to do: a background drain of an endless source (its output goes nowhere), a background job that has produced nothing for a minute (a leak?), a buffer dropping elements, a debounce whose input never pauses, an into waiting 5s or more for a consumer, a share holding more than 10 elements for its slowest reader, a stream read by several consumers at once (they split its elements); and, for a job cancelled while a work cooperative: false waited, that it ignored the cancel and handed an element on (said also when the job ends)"
    )
    static let example = HelpExample("timer 1 | drain &\nsleep 2\nlint\ncancel 1")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      let lints = shell.engine.lints
      guard !lints.isEmpty else { return shell.console.line("lint: no warnings") }
      let width = Format.screenWidth
      for lint in lints {
        let text = shell.engine.text(ofJob: lint.job) ?? ""
        shell.console.line(Format.shortened("[\(lint.job)] \(lint.kind.rawValue): \(text)", to: width))
        for line in Format.wrapped("  why: \(lint.why)", width: width) { shell.console.line(line) }
        for line in Format.wrapped("  do: \(lint.fix)", width: width) { shell.console.line(line) }
      }
    }
  }
}
