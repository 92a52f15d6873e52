import PipeSema
import PipeSession

extension Commands {
  /// `ops`: the operators, by role.
  enum Ops {
    static let entry = Command.bare(.ops) { shell in
      let groups: [(String, OperatorRole)] = [
        ("sources", .source), ("combinators", .combinator), ("operators", .operator), ("sinks", .sink),
      ]
      for (title, role) in groups {
        shell.console.line("\(title):")
        let rows = OperatorKind.signatures.all.filter { $0.role == role }.map { ["  " + $0.usage, $0.summary] }
        for line in Format.table(rows) { shell.console.line(line) }
      }
    }.example("ops")
  }
}
