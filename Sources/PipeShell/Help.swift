import Locking
import PipeRuntime
import PipeSema
import PipeSyntax

extension Shell {
  func help(_ topic: String?) async {
    guard let topic else {
      console.line("commands:")
      for line in Format.table(Commands.usage.map { ["  " + $0.usage, $0.summary] }) { console.line(line) }
      console.line("'ops' lists the operators; 'help NAME' explains one, with an example.")
      return
    }
    if let command = Commands.usage.first(where: { $0.name == topic }) {
      console.line(command.usage)
      console.line("  " + command.summary)
      return
    }
    guard let signature = Operators.signatures[topic] else { return }
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
