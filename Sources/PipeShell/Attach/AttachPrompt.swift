import Dispatch
import LineEditor
import Locking
import PipeSession
import PipeSyntax

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension AttachSession {
  /// `pipesh attach SOCKET` at a terminal: a prompt where each line's statements run as `-c`'s do,
  /// each reading the program's probes as they are then; an error is said and the prompt comes
  /// back. `quit`, `exit` or Ctrl-D detaches (the program runs on); Ctrl-C drops the line typed.
  public static func prompt(attachedTo name: String, fetch: @escaping Fetch, console: Console) async -> Int32 {
    guard
      let editor = LineEditor(
        program: "pipesh", historyPath: historyPath,
        completer: { before in AttachStatement.complete(before) })
    else {
      FileOutput.error("error: cannot start the line editor")
      return 2
    }
    let terminal = TerminalGuard()
    // Ctrl-C while a line's statements run stops them (a `sleep`, a slow program); at the prompt
    // the editor drops the line typed.
    let running = Locked<Task<Int32, Never>?>(nil)
    let interrupts = InterruptSignal { running.withLock { $0?.cancel() } }
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
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words == ["quit"] || words == ["exit"] { return 0 }
        let source = SourceFile(name: nil, text: text)
        let (statements, diagnostics) = AttachStatement.parse(source)
        if diagnostics.isEmpty {
          let task = Task { await run(statements, fetch: fetch, console: console) }
          running.withLock { $0 = task }
          _ = await task.value
          running.withLock { $0 = nil }
          if task.isCancelled { console.line("stopped (Ctrl-C)", to: .error) }
        } else {
          console.report(diagnostics, in: source)
        }
        console.flush()
      }
    }
  }
}

extension AttachSession {
  /// The attach prompt's own history (its statements mean nothing to the shell's prompt): beside
  /// the shell's, `PIPESH_HISTORY` with `-attach` after it, else `~/.pipesh_attach_history`.
  static var historyPath: String {
    if let path = getenv("PIPESH_HISTORY") { return String(cString: path) + "-attach" }
    let home = getenv("HOME").map { String(cString: $0) } ?? "."
    return home + "/.pipesh_attach_history"
  }
}

extension AttachStatement {
  /// Tab at the attach prompt: the commands at a statement's start, `draw`'s labels after it.
  static func complete(_ before: String) -> (wordLength: Int, candidates: [String]) {
    let statement = before.split(separator: ";", omittingEmptySubsequences: false).last ?? ""
    let words = statement.split(separator: " ", omittingEmptySubsequences: true)
    let typing = statement.last == " " || statement.isEmpty ? "" : String(words.last ?? "")
    let earlier = typing.isEmpty ? words : words.dropLast()
    // quit and exit only as the whole line.
    let commands =
      ["jobs", "tasks", "top", "why", "draw", "sleep", "save"] + (before.contains(";") ? [] : ["quit", "exit"])
    let pool = earlier.isEmpty ? commands : earlier.first == "draw" ? ["until:", "tick:"] : []
    return (typing.count, pool.filter { $0.hasPrefix(typing) }.sorted())
  }
}
