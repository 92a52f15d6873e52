import Dispatch
import LineEditor
import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The interactive loop: prompt, read a (possibly continued) line with the line editor, run it.
public final class InteractiveShell {
  let shell: Shell
  /// What completion may name; refreshed after every line (the editor reads it on its thread).
  let completionContext = CompletionContextBox()
  private let readQueue = DispatchQueue(label: "pipesh.line-editor")

  public init(shell: Shell) {
    self.shell = shell
  }

  static var historyPath: String {
    if let path = getenv("PIPESH_HISTORY") { return String(cString: path) }
    let home = getenv("HOME").map { String(cString: $0) } ?? "."
    return home + "/.pipesh_history"
  }

  public func run() async -> Int32 {
    let context = completionContext
    guard
      let editor = LineEditor(
        program: "pipesh", historyPath: Self.historyPath,
        completer: { before in Completion.complete(before, context.value.withLock { $0 }) })
    else {
      FileOutput.error("error: cannot start the line editor")
      return 2
    }
    let terminal = TerminalGuard()
    shell.engine.giveTerminalInputToTheEditor()
    let feed = shell.presentFeed
    shell.console.setLineWriter { text, _ in
      editor.print(above: text)
      feed?.output(text)
    }
    let snapshots = feed.map { presentTop(to: $0) }
    shell.historyProvider = { editor.entries }
    editor.promptProvider = { [shell] in Self.prompt(running: shell.engine.runningJobIDs.count) }
    let signal = InterruptSignal { [shell] in shell.engine.interrupt() }
    defer {
      snapshots?.cancel()
      withExtendedLifetime(signal) {}
      shell.console.setLineWriter(nil)
      terminal.restore()
    }
    while !shell.engine.quitRequested {
      refreshCompletion()
      let prompt = Self.prompt(running: shell.engine.runningJobIDs.count)
      var input = await read(editor, prompt: prompt)
      guard case .line(var text) = input else {
        if input == .interrupt { continue }
        break
      }
      feed?.input(prompt: prompt, text: text)
      while Lexer.needsContinuation(text) {
        input = await read(editor, prompt: "   ...> ")
        guard case .line(let more) = input else { break }
        feed?.input(prompt: "   ...> ", text: more)
        text += "\n" + more
      }
      if input == .interrupt { continue }
      let interrupts = shell.engine.interruptCount
      editor.remember(text)
      shell.engine.clearInterrupt()
      await shell.engine.runLine(text, interruptsBefore: interrupts)
    }
    // Counted before anything is said: a Ctrl-C typed as soon as the message shows counts.
    let interruptsBefore = shell.engine.interruptCount
    // A job that ignores its cancellation (work … cooperative: false) is waited for until Ctrl-C.
    let running = await shell.engine.cancelEverything(again: "Ctrl-C quits now", since: interruptsBefore)
    shell.engine.close()
    shell.console.line("bye: cancelled \(running) running job\(running == 1 ? "" : "s")")
    return 0
  }

  /// `pipesh serve --present`: a snapshot of `top` to the feed each second while a job runs, and
  /// one when the last has ended. Read on the real clock: the session's may stand still.
  private func presentTop(to feed: PresentFeed) -> Task<Void, Never> {
    Task { [shell] in
      var history = TopHistory()
      var wasRunning = false
      while !Task.isCancelled, feed.isOpen {
        let running = !shell.engine.runningJobIDs.isEmpty
        if running || wasRunning { feed.top(shell.topSnapshot(&history)) }
        wasRunning = running
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }

  /// `pipesh[N]> `, N the running jobs: on a terminal in colour (cyan, yellow while jobs run),
  /// the colour between `\u{1}`s so the line editor counts it as no columns.
  static func prompt(running: Int) -> String {
    guard Paint.isOn(for: 1) else { return "pipesh[\(running)]> " }
    let count = Paint.paint(String(running), running > 0 ? .yellow : .cyan, bold: true, on: true)
    return "pipesh[" + count.replacing("\u{1B}[", with: "\u{1}\u{1B}[").replacing("m", with: "m\u{1}") + "]> "
  }

  /// Reads a line on the editor's own thread, with the session clock running meanwhile.
  private func read(_ editor: LineEditor, prompt: String) async -> LineInput {
    let queue = readQueue
    let box = EditorBox(editor)
    return await shell.engine.whileReading {
      await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: box.editor.readLine(prompt: prompt)) }
      }
    }
  }

  private func refreshCompletion() {
    var context = CompletionContext()
    let bindings = shell.engine.environment.bindings.values
    context.sourceFragments = bindings.filter(\.isSource).map(\.name)
    context.operatorFragments = bindings.filter { !$0.isSource }.map(\.name)
    context.jobIDs = shell.engine.jobIDs
    context.channels = Array(Set(shell.engine.channelNames + shell.engine.environment.channels.keys)).sorted()
    completionContext.value.withLock { $0 = context }
  }
}

/// Hands the line editor to the reading queue.
struct EditorBox: @unchecked Sendable {
  // @unchecked: only the one reading queue calls the editor while a line is read.
  let editor: LineEditor

  init(_ editor: LineEditor) {
    self.editor = editor
  }
}

/// The completion context, shared with the editor's thread.
final class CompletionContextBox: Sendable {
  let value = Locked(CompletionContext())
}

/// Keeps the terminal's settings from start-up and puts them back at exit, also after SIGTERM or
/// SIGHUP, so a killed shell does not leave the terminal in raw mode.
final class TerminalGuard {
  private let saved: termios?
  private var ids: [Int] = []

  init() {
    var settings = termios()
    saved = tcgetattr(0, &settings) == 0 ? settings : nil
    let restore = TerminalSettings(saved)
    for number in [SIGTERM, SIGHUP] {
      ids.append(
        SignalHub.add(number) {
          restore.apply()
          exit(128 + number)
        })
    }
  }

  func restore() {
    TerminalSettings(saved).apply()
    for id in ids { SignalHub.remove(id) }
  }
}

/// Terminal settings to put back.
struct TerminalSettings: @unchecked Sendable {
  // @unchecked: a copy of a plain C struct, only read.
  let settings: termios?

  init(_ settings: termios?) {
    self.settings = settings
  }

  func apply() {
    if var settings { tcsetattr(0, TCSANOW, &settings) }
  }
}
