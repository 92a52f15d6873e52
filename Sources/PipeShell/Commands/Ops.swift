import PipeSema
import PipeSession
import PipeViews

extension Commands {
  /// `ops`: the operators, by role.
  struct Ops: ShellCommand {
    static let signature = CommandSignature("ops", .bare, summary: "lists the operators")
    static let example = HelpExample("ops")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      let groups: [(String, OperatorRole)] = [
        ("sources", .source), ("combinators", .combinator), ("operators", .operator), ("sinks", .sink),
      ]
      for (title, role) in groups {
        shell.console.line("\(title):")
        let rows = OperatorKind.signatures.all.filter { $0.role == role }.map { ["  " + $0.usage, $0.summary] }
        for line in Format.table(rows) { shell.console.line(line) }
      }
    }
  }
}
