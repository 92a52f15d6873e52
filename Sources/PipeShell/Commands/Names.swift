import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Commands {
  /// `names`: the let bindings of this session.
  struct Names: ShellCommand {
    static let signature = CommandSignature("names", .bare, summary: "lists the let bindings")
    static let example = HelpExample("let evens = filter { $0 % 2 == 0 }\nlet ticks = timer 1\nnames")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      let bindings = shell.engine.environment.bindings.values.sorted { $0.name < $1.name }
      guard !bindings.isEmpty else { return shell.console.line("no let bindings") }
      let rows = bindings.map { binding -> [String] in
        let kind = binding.isSource ? "source of \(binding.elementType?.description ?? "?")" : "operators"
        return [binding.name, "= " + binding.source.text(of: binding.pipeline.range), "(\(kind))"]
      }
      for line in Format.table(rows) { shell.console.line(line) }
    }
  }
}
