import Locking
import PipeRuntime
import PipeSema
import PipeSyntax

extension Commands {
  /// `help [NAME]`: the commands, or one command or operator with its example run.
  enum Help {
    static let entry = Command.topic(
      "help", usage: "help [NAME]", summary: "documentation of a command or operator"
    ) { shell, topic in
      await shell.help(topic)
    }
  }
}

/// A help topic that is neither a command nor an operator.
struct HelpTopic: Sendable {
  let name: String
  let usage: String
  let summary: String
}

extension Commands {
  /// Topics `help` knows beside the commands and operators.
  static let topics = [
    HelpTopic(name: "let", usage: "let NAME = FRAGMENT", summary: "names a pipeline fragment")
  ]
}

extension Shell {
  func help(_ topic: String?) async {
    let entries =
      Commands.all.map { ($0.name, $0.signature.usage, $0.signature.summary) }
      + Commands.topics.map { ($0.name, $0.usage, $0.summary) }
    guard let topic else {
      console.line("commands:")
      for line in Format.table(entries.map { ["  " + $0.1, $0.2] }) { console.line(line) }
      console.line("'ops' lists the operators; 'help NAME' explains one, with an example.")
      return
    }
    let entry = entries.first { $0.0 == topic }
    if let entry {
      console.line(entry.1)
      console.line("  " + entry.2)
    }
    // A word can be both (`fail`, the command, and `fail "…"`, the source): both are shown.
    guard let signature = Operators.signatures[topic] else {
      if entry == nil { commandFailed("help: pipesh knows no help for '\(topic)' (a bug: please report it)") }
      return
    }
    for line in await Self.helpText(signature) { console.line(line) }
  }

  /// The help of an operator: usage, summary, arguments, implementation, and its example with the
  /// output it really gives (run now on the virtual clock).
  public static func helpText(_ signature: OperatorSignature) async -> [String] {
    var lines = [signature.usage, "  \(signature.summary)"]
    if !signature.parameters.isEmpty {
      lines.append("arguments:")
      let rows = signature.parameters.map { parameter in
        ["  " + (parameter.label.map { "\($0):" } ?? parameter.name.uppercased()), parameter.help]
      }
      lines += Format.table(rows)
    }
    lines.append("implementation: \(signature.implementation)")
    lines.append("example:")
    lines.append("  > \(signature.example)")
    if signature.exampleRuns {
      lines += await runExample(signature.example).map { "  " + $0 }
    }
    return lines
  }

  /// Runs a statement on the virtual clock in a fresh session and returns what it printed.
  public static func runExample(_ text: String) async -> [String] {
    let captured = Locked<[String]>([])
    let console = Console()
    console.setLineWriter { line, _ in captured.withLock { $0.append(line) } }
    let shell = Shell(console: console, interactive: false, virtualTime: true)
    _ = await shell.runScript(SourceFile(name: nil, text: text))
    shell.close()
    return captured.withLock { $0 }
  }
}
