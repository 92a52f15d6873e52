import CEditLine
import Locking
import Platform
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the user did at the prompt.
public enum LineInput: Sendable, Equatable {
  /// A line (without its newline).
  case line(String)
  /// Ctrl-C: the line was abandoned.
  case interrupt
  /// Ctrl-D on an empty line.
  case endOfInput
}

/// Completes the word before the cursor: where the replaced word starts (a count of characters
/// back from the cursor) and the candidates.
public typealias Completer = @Sendable (_ lineBeforeCursor: String) -> (wordLength: Int, candidates: [String])

/// Line editing with the system libedit: emacs keys, `~/.editrc`, history in a file, Ctrl-R search,
/// tab completion, and printing above the line being edited. This is the only importer of CEditLine.
public final class LineEditor: @unchecked Sendable {
  // @unchecked: libedit's state is used by the reading thread while it holds `editing`, which it
  // lets go of only while libedit waits for a key; `print(above:)` takes `editing` too, so it reads
  // the edited line and has libedit redraw only between keys, never while libedit handles one.

  private let editLine: OpaquePointer
  private let history: OpaquePointer
  private let historyPath: String
  private let lock = Locked(ReadState())
  /// Held while libedit runs on the reading thread, except while it waits for a key
  /// (`readCharacter`): output printed above the line waits for the key being handled to be drawn.
  /// (A line printed while libedit drew a burst of keys could leave a stale row.)
  private let editing = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  private struct ReadState {
    var reading = false
    var prompt = ""
  }

  /// The editor whose callbacks are running (libedit's C callbacks cannot capture).
  nonisolated(unsafe) private static var current: LineEditor?
  /// The prompt libedit asks for, from the reading thread or (on a redraw) the printing one. The
  /// C strings are interned and never freed, so a pointer libedit still holds stays valid.
  private static let prompts = Locked<(current: String, interned: [String: UnsafeMutablePointer<CChar>])>(("", [:]))

  private static func setPrompt(_ prompt: String) {
    prompts.withLock { state in
      state.current = prompt
      if state.interned[prompt] == nil { state.interned[prompt] = strdup(prompt) }
    }
  }

  /// libedit reads characters as the C library's locale says: in the C locale, which a program
  /// has until it sets one, it drops every byte of a character beyond ASCII, typed or pasted (and
  /// the history file keeps the mangled line). So the character type comes from the environment,
  /// and is UTF-8 when the environment names none that is.
  private static func useUTF8Characters() {
    setlocale(LC_CTYPE, "")
    if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
  }

  private static func promptPointer() -> UnsafeMutablePointer<CChar>? {
    prompts.withLock { $0.interned[$0.current] }
  }
  private let completer: Completer
  private let interrupted = Atomic<Bool>(false)
  /// Gives the prompt anew when lines are printed above it (the running job count may change).
  public var promptProvider: (@Sendable () -> String)?

  public init?(program: String, historyPath: String, completer: @escaping Completer) {
    Self.useUTF8Characters()
    guard let editLine = pipe_el_init(program), let history = pipe_history_init() else { return nil }
    self.editLine = editLine
    self.history = history
    self.historyPath = historyPath
    self.completer = completer
    pipe_history_setup(history, 1000)
    pipe_history_load(history, historyPath)
    pipe_el_editor(editLine, "emacs")
    pipe_el_history(editLine, history)
    pipe_el_prompt(editLine) { _ in LineEditor.promptPointer() }
    pipe_el_addfn(editLine, "pipe-complete", "complete a word", { _, _ in LineEditor.current?.complete() ?? 6 }, "^I")
    pipe_el_addfn(
      editLine, "pipe-interrupt", "abandon the line", { _, _ in LineEditor.current?.abandonLine() ?? 6 }, "^C")
    pipe_el_bind(editLine, "^R", "em-inc-search-prev")
    pthread_mutex_init(editing, nil)
    pipe_el_getcfn(editLine, Self.readCharacter)
    pipe_el_no_isig(editLine)
    _ = pipe_el_source(editLine)
    Self.current = self
  }

  deinit {
    pipe_el_end(editLine)
    pipe_history_end(history)
    pthread_mutex_destroy(editing)
    editing.deallocate()
  }

  /// libedit's read of a character: `editing` is let go of while no key is there yet, then the
  /// character is read with libedit's own function.
  private static let readCharacter: pipe_getc_fn = { editLine, character in
    guard let editor = LineEditor.current else { return -1 }
    pthread_mutex_unlock(editor.editing)
    var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while poll(&ready, 1, -1) < 0, errno == EINTR {}
    pthread_mutex_lock(editor.editing)
    return pipe_el_builtin_getc(editLine, character, readCharacter)
  }

  /// Reads one line with `prompt`. Blocks: call it off the cooperative pool.
  public func readLine(prompt: String) -> LineInput {
    Self.setPrompt(prompt)
    // Taken first: a line printed before it is printed as no line is being edited.
    pthread_mutex_lock(editing)
    lock.withLock {
      $0.reading = true
      $0.prompt = prompt
    }
    interrupted.store(false, ordering: .relaxed)
    // Edit mode before the prompt shows: el_gets prints the prompt and only then leaves cooked
    // mode, and a Ctrl-D typed in that gap would reach it as a NUL.
    pipe_el_prep_term(editLine, 1)
    var count: Int32 = 0
    let raw = pipe_el_gets(editLine, &count)
    pipe_el_prep_term(editLine, 0)
    lock.withLock { $0.reading = false }
    pthread_mutex_unlock(editing)
    if interrupted.load(ordering: .relaxed) {
      Self.write("^C\r\n")
      return .interrupt
    }
    guard let raw, count > 0 else {
      Self.write("\r\n")
      return .endOfInput
    }
    var line = String(cString: raw)
    if line.hasSuffix("\n") { line.removeLast() }
    return .line(line)
  }

  /// Adds a line to the history (duplicates are dropped) and saves the file.
  public func remember(_ line: String) {
    guard !line.allSatisfy(\.isWhitespace) else { return }
    pipe_history_enter(history, line)
    pipe_history_save(history, historyPath)
  }

  /// The history, oldest first.
  public var entries: [String] {
    let count = Int(pipe_history_count(history))
    return (0..<count).compactMap { index in
      pipe_history_entry(history, Int32(index)).map { String(cString: $0).trimmingNewline }
    }.reversed()
  }

  /// Prints lines above the line being edited and redraws the prompt and the partly typed line.
  public func print(above text: String) {
    pthread_mutex_lock(editing)
    defer { pthread_mutex_unlock(editing) }
    let (reading, prompt) = lock.withLock { ($0.reading, $0.prompt) }
    if reading {
      if let fresh = promptProvider?(), fresh != prompt, !prompt.hasPrefix(" ") {
        lock.withLock { $0.prompt = fresh }
        Self.setPrompt(fresh)
      }
      // Up to the first row of the edited line (it may wrap), clear from there down, print, and
      // let libedit draw the prompt and the line again below.
      let rows = rowsAboveCursor(prompt: prompt)
      Self.write("\r" + (rows > 0 ? "\u{1B}[\(rows)A" : "") + "\u{1B}[J" + text.replacingNewlines + "\r\n")
      pipe_el_refresh(editLine)
    } else {
      Self.write(text + "\n")
    }
  }

  /// The rows of the edited line above the cursor's: the prompt and the text before the cursor,
  /// wrapped at the terminal's width.
  private func rowsAboveCursor(prompt: String) -> Int {
    guard let info = pipe_el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
      return 0
    }
    let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 0 }
    return Self.columnsWide(Self.shown(prompt) + before) / Int(size.ws_col)
  }

  /// A prompt as it shows: without what stands between two `\u{1}` (colour sequences).
  static func shown(_ prompt: String) -> String {
    prompt.split(separator: "\u{1}", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined()
  }

  /// The columns `text` takes on a terminal (a wide character two, a combining mark none).
  static func columnsWide(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { total, scalar in total + max(0, Int(pipe_character_width(scalar.value))) }
  }

  private func complete() -> UInt8 {
    guard let info = pipe_el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
      return 6  // CC_ERROR
    }
    let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
    let (wordLength, candidates) = completer(before)
    let word = String(before.suffix(wordLength))
    guard !candidates.isEmpty else { return 6 }
    let common = Self.commonPrefix(candidates)
    if candidates.count == 1 {
      let addition = String(candidates[0].dropFirst(word.count))
      let suffix = ["/", ":", "("].contains(candidates[0].last.map(String.init) ?? "") ? "" : " "
      _ = pipe_el_insert(editLine, addition + suffix)
      return 4  // CC_REFRESH
    }
    if common.count > word.count {
      _ = pipe_el_insert(editLine, String(common.dropFirst(word.count)))
      return 4
    }
    Self.write("\r\n" + Self.columns(candidates) + "\r\n")
    return 8  // CC_REDISPLAY
  }

  private func abandonLine() -> UInt8 {
    interrupted.store(true, ordering: .relaxed)
    if let info = pipe_el_line(editLine)?.pointee, let buffer = info.buffer, let last = info.lastchar,
      let cursor = info.cursor
    {
      _ = pipe_el_cursor(editLine, Int32(last - cursor))
      pipe_el_delete(editLine, Int32(last - buffer))
    }
    return 1  // CC_NEWLINE
  }

  static func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first else { return "" }
    for word in words.dropFirst() {
      while !word.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  /// Candidates in columns, as bash lists them.
  static func columns(_ words: [String], width: Int = 80) -> String {
    let cell = (words.map(\.count).max() ?? 0) + 2
    let perLine = max(1, width / cell)
    var lines: [String] = []
    var index = 0
    while index < words.count {
      let row = words[index..<min(index + perLine, words.count)]
      lines.append(
        row.map { $0 + String(repeating: " ", count: cell - $0.count) }.joined().trimmingTrailingSpaces)
      index += perLine
    }
    return lines.joined(separator: "\r\n")
  }

  static func write(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { Platform.write(1, $0.baseAddress, $0.count - 1) }
  }
}

extension String {
  fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }

  fileprivate var replacingNewlines: String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
  }

  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
