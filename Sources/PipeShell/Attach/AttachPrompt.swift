import Dispatch
import LineEditor
import PipeSyntax

extension AttachSession {
  /// `pipesh attach SOCKET` at a terminal: a prompt where each line's statements run as `-c`'s do,
  /// each reading the program's probes as they are then; an error is said and the prompt comes
  /// back. `quit`, `exit` or Ctrl-D detaches (the program runs on); Ctrl-C drops the line typed.
  public static func prompt(attachedTo name: String, fetch: @escaping Fetch, console: Console) async -> Int32 {
    guard
      let editor = LineEditor(
        program: "pipesh", historyPath: InteractiveShell.historyPath,
        completer: { before in AttachStatement.complete(before) })
    else {
      FileOutput.error("error: cannot start the line editor")
      return 2
    }
    let terminal = TerminalGuard()
    let interrupts = InterruptSignal {}
    defer {
      withExtendedLifetime(interrupts) {}
      terminal.restore()
    }
    console.line("attached to \(name); it runs on while you look. \(AttachStatement.usage); quit detaches")
    console.flush()
    let queue = DispatchQueue(label: "pipesh.attach.line-editor")
    let box = EditorBox(editor)
    while true {
      let input = await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: box.editor.readLine(prompt: "attach> ")) }
      }
      switch input {
      case .endOfInput: return 0
      case .interrupt: continue
      case .line(let text):
        editor.remember(text)
        let trimmed = text.trimmingCharacters(in: " \t")
        if trimmed == "quit" || trimmed == "exit" { return 0 }
        let source = SourceFile(name: nil, text: text)
        let (statements, diagnostics) = AttachStatement.parse(source)
        if diagnostics.isEmpty {
          _ = await run(statements, fetch: fetch, console: console)
        } else {
          console.report(diagnostics, in: source)
        }
        console.flush()
      }
    }
  }
}

extension AttachStatement {
  /// Tab at the attach prompt: the commands at a statement's start, `draw`'s labels after it.
  static func complete(_ before: String) -> (wordLength: Int, candidates: [String]) {
    let statement = before.split(separator: ";", omittingEmptySubsequences: false).last ?? ""
    let words = statement.split(separator: " ", omittingEmptySubsequences: true)
    let typing = statement.last == " " || statement.isEmpty ? "" : String(words.last ?? "")
    let earlier = typing.isEmpty ? words : words.dropLast()
    let pool =
      earlier.isEmpty ? ["jobs", "draw", "sleep", "save", "quit"] : earlier.first == "draw" ? ["until:", "tick:"] : []
    return (typing.count, pool.filter { $0.hasPrefix(typing) }.sorted())
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
  }
}
