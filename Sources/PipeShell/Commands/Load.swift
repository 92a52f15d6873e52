import Dispatch
import Locking
import PipeSema
import PipeSession
import PipeSyntax
import Platform
import TextFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Commands {
  /// `load "FILE"`: runs a script file inside this shell, with its bindings and jobs.
  struct Load: ShellCommand {
    static let signature = CommandSignature(
      "load", .file, usage: "load \"FILE\"", summary: "runs a script file inside this shell")
    static let example = HelpExample("load \"Examples/merge-two-timers.pipe\"", runs: false)
    let path: String

    static func check(_ reader: inout CommandReader) -> Self? { reader.file().map { Self(path: $0) } }
    var reach: CommandReach { .reads("load reads a script file") }
    var export: CommandExport { .load }

    func run(in shell: Shell) async {
      await shell.load(path)
    }
  }
}

extension Shell {
  func load(_ path: String) async {
    guard engine.loadDepth < Engine.maximumLoadDepth else {
      return engine.loadFailed(
        "load: '\(path)' nests loads more than \(Engine.maximumLoadDepth) deep (does it load itself?)")
    }
    guard let read = await readingInterruptibly(path) else { return }
    switch read {
    case .failure(let failure):
      engine.loadFailed("load: \(failure)")
    case .success(let text):
      engine.loadDepth += 1
      defer { engine.loadDepth -= 1 }
      let status = await engine.runScriptInline(SourceFile(name: path, text: Self.strippingShebang(text)))
      if status == 2 { engine.loadFailed(nil) }
    }
  }

  /// The file's text, read on a thread that may block (opening a FIFO nobody writes to yet blocks
  /// in `open`); nil when Ctrl-C stopped the waiting. A reader still blocked then is let go by
  /// opening the FIFO for writing once, which it sees as an empty file.
  private func readingInterruptibly(_ path: String) async -> Result<String, TextFile.Failure>? {
    let answer = Answer<Result<String, TextFile.Failure>>()
    await engine.waitFor(runningClock: false) {
      await withTaskCancellationHandler {
        await withUnsafeContinuation { waiter in
          guard answer.wait(waiter) else { return }
          DispatchQueue.global().async { answer.give(TextFile.read(path)) }
        }
      } onCancel: {
        guard answer.give(nil) else { return }
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { Platform.close(writer) }
      }
    }
    return answer.value
  }

  /// A `#!` first line is a comment.
  public static func strippingShebang(_ text: String) -> String {
    guard text.hasPrefix("#!") else { return text }
    return "#" + text.dropFirst()
  }
}

/// One answer, given once, from whichever comes first: the work's result or nil (Ctrl-C).
final class Answer<T: Sendable>: Sendable {
  private let state = Locked<(waiter: UnsafeContinuation<Void, Never>?, given: Bool, value: T?)>((nil, false, nil))

  /// Keeps the waiter; false (and resumed) when the answer came first.
  func wait(_ waiter: UnsafeContinuation<Void, Never>) -> Bool {
    let given = state.withLock { state -> Bool in
      if !state.given { state.waiter = waiter }
      return state.given
    }
    if given { waiter.resume() }
    return !given
  }

  /// Gives the answer; false when one was given already.
  @discardableResult
  func give(_ value: T?) -> Bool {
    let (first, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
      guard !state.given else { return (false, nil) }
      state.given = true
      state.value = value
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume()
    return first
  }

  var value: T? { state.withLock { $0.value } }
}
