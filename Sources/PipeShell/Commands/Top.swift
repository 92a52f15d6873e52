import Dispatch
import Locking
import PipeSema
import PipeSession
import PipeViews
import Platform
import VirtualTime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Commands {
  /// `top`: the running jobs, live, full screen.
  struct Top: ShellCommand {
    static let signature = CommandSignature(
      "top", .bare,
      summary:
        "shows the running jobs live, full screen, a second a frame (on the virtual clock, a virtual second): a row per job and, expanded, per node (state, what it waits on, IN, OUT, elements a second over the last 5s, time since its last element), with the warnings of lint; keys: q or Ctrl-C quit, up/down select, enter expands, e/c expand/collapse all, 1-5 sort by ID, STATE, TIME, OUT, RATE (again: reverse), / filter; not on a terminal, one snapshot"
    )
    static let example = HelpExample("timer 1 | take 5 | drain &\ntop\ncancel 1")

    static func check(_ reader: inout CommandReader) -> Self? { reader.bare().map { Self() } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      await shell.top()
    }
  }
}

extension Shell {
  /// Session time now, on the session's clock.
  private var sessionNow: Duration {
    if let driver = engine.sessionDriver { return driver.now.offset }
    return engine.realTimeSinceStart
  }

  private var clockName: String {
    if engine.sessionDriver != nil { return "virtual" }
    return "real"
  }

  /// `top` as it prints when not on a terminal: one snapshot, with `history` sampled now.
  func topSnapshot(_ history: inout TopHistory) -> [String] {
    let view = TopView()
    let jobs = engine.runningJobSnapshots
    history.sample(jobs, at: sessionNow)
    let shown = view.shown(jobs, history, lints: engine.lints(ofJob:))
    return view.lines(shown, history, now: sessionNow, clock: clockName, width: Format.screenWidth, height: nil)
  }

  func top() async {
    var history = TopHistory()
    guard isatty(0) == 1, isatty(1) == 1, engine.interactive else {
      for line in topSnapshot(&history) { console.line(line) }
      return
    }
    var view = TopView()
    let keys = KeyReader()
    guard keys.start() else {
      return engine.commandFailed("top: cannot read the terminal's keys; jobs and inspect show the same once")
    }
    // Jobs' lines wait until the screen is back.
    let held = Locked<[(String, Console.Stream)]>([])
    let previous = console.replaceLineWriter { text, stream in held.withLock { $0.append((text, stream)) } }
    Console.writeNow("\u{1B}[?1049h\u{1B}[?25l")
    var size = TerminalSize.current()
    var lastFrame: Duration?
    var frame = ContinuousClock.now
    showing: while true {
      let now = sessionNow
      let jobs = engine.runningJobSnapshots
      if lastFrame != now {
        history.sample(jobs, at: now)
        lastFrame = now
      }
      let shown = view.shown(jobs, history, lints: engine.lints(ofJob:))
      if view.selected.map({ id in !shown.contains { $0.job.id == id } }) ?? true {
        view.selected = shown.first?.job.id
      }
      let lines = view.lines(shown, history, now: now, clock: clockName, width: size.columns, height: size.rows)
      Console.writeNow("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
      switch await nextTopEvent(keys, size: size, since: frame) {
      case .key(let key): if !(await handle(key, &view, shown: shown.map(\.job), keys: keys)) { break showing }
      case .resized(let newSize): size = newSize
      case .frame: frame = ContinuousClock.now
      }
    }
    keys.stop()
    Console.writeNow("\u{1B}[?25h\u{1B}[?1049l")
    console.setLineWriter(previous)
    for (text, stream) in held.withLock({ $0 }) { console.line(text, to: stream) }
  }

  private enum TopEvent {
    case key(KeyReader.Key)
    case resized(TerminalSize)
    case frame
  }

  /// What redraws `top`: a key or a resize at once, else the next frame a second after the last
  /// (a virtual second on the virtual clock, which moves on while top waits).
  private func nextTopEvent(
    _ keys: KeyReader, size: TerminalSize, since frame: ContinuousClock.Instant
  ) async
    -> TopEvent
  {
    while true {
      if let key = keys.next() { return .key(key) }
      let newSize = TerminalSize.current()
      if newSize != size { return .resized(newSize) }
      if ContinuousClock.now - frame >= .seconds(1) {
        if let driver = engine.sessionDriver {
          await engine.waitFor(on: driver, interruptible: false) {
            try? await driver.sleep(until: driver.now.advanced(by: .seconds(1)))
          }
        }
        return .frame
      }
      try? await Task.sleep(for: .milliseconds(50))
    }
  }

  /// Acts on a key; false to quit.
  private func handle(_ key: KeyReader.Key, _ view: inout TopView, shown: [JobSnapshot], keys: KeyReader) async -> Bool
  {
    let index = shown.firstIndex { $0.id == view.selected }
    switch key {
    case .character("q"), .interrupt: return false
    case .up: if let index, index > 0 { view.selected = shown[index - 1].id }
    case .down: if let index, index + 1 < shown.count { view.selected = shown[index + 1].id }
    case .enter, .character(" "):
      if let id = view.selected {
        if view.expanded.contains(id) || view.expandAll {
          view.expanded.remove(id)
          if view.expandAll {
            view.expandAll = false
            view.expanded = Set(shown.map(\.id)).subtracting([id])
          }
        } else {
          view.expanded.insert(id)
        }
      }
    case .character("e"): view.expandAll = true
    case .character("c"):
      view.expandAll = false
      view.expanded = []
    case .character(let character) where ("1"..."5").contains(character):
      guard let number = Int(String(character)), let column = TopView.Column(rawValue: number) else { break }
      if view.sort == column { view.descending.toggle() } else { (view.sort, view.descending) = (column, false) }
    case .character("/"):
      view.filter = await keys.readLine(prompt: "filter: ", current: view.filter) ?? view.filter
    default: break
    }
    return true
  }
}

/// The terminal's size, re-read each time (a resize shows at the next look).
struct TerminalSize: Equatable {
  let columns: Int
  let rows: Int

  static func current() -> TerminalSize {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return TerminalSize(columns: Format.screenWidth, rows: 24)
    }
    return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
  }
}

/// The keys typed while `top` shows, read without waiting for a line: the terminal in raw mode,
/// a thread reading it, the keys queued.
final class KeyReader: Sendable {
  enum Key: Equatable {
    case character(Character)
    case up, down, enter, escape, backspace, interrupt
  }

  private let queue = Locked<[Key]>([])
  private let running = Locked(false)
  private let finished = DispatchSemaphore(value: 0)
  private let saved = Locked<TerminalSettings?>(nil)
  private let readQueue = DispatchQueue(label: "pipesh.top-keys")

  /// Raw mode and the reading thread; false when standard input is no terminal.
  func start() -> Bool {
    var settings = termios()
    guard tcgetattr(0, &settings) == 0 else { return false }
    let original = settings
    saved.withLock { $0 = TerminalSettings(original) }
    var raw = settings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return false }
    running.withLock { $0 = true }
    readQueue.async { [self] in read() }
    return true
  }

  func stop() {
    running.withLock { $0 = false }
    finished.wait()
    saved.withLock { $0 }?.apply()
  }

  func next() -> Key? {
    queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }

  /// A line typed at the bottom of the screen (`/` filter); nil on escape.
  func readLine(prompt: String, current: String) async -> String? {
    var text = current
    while true {
      Console.writeNow("\r\u{1B}[K" + prompt + text)
      guard let key = await waitNext() else { return nil }
      switch key {
      case .enter: return text
      case .escape, .interrupt: return nil
      case .backspace: if !text.isEmpty { text.removeLast() }
      case .character(let character): text.append(character)
      default: break
      }
    }
  }

  private func waitNext() async -> Key? {
    while running.withLock({ $0 }) {
      if let key = next() { return key }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return nil
  }

  private func read() {
    var pending: [UInt8] = []
    while running.withLock({ $0 }) {
      var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 50) > 0 else {
        if pending == [0x1B] {
          queue.withLock { $0.append(.escape) }
          pending = []
        }
        continue
      }
      var byte: UInt8 = 0
      guard Platform.read(0, &byte, 1) == 1 else { continue }
      pending.append(byte)
      if let (key, used) = Self.decode(pending) {
        queue.withLock { $0.append(key) }
        pending.removeFirst(used)
      }
    }
    finished.signal()
  }

  /// The key at the start of `bytes` and how many bytes it took; nil while more may follow.
  static func decode(_ bytes: [UInt8]) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x03: return (.interrupt, 1)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x1B:
      guard bytes.count >= 2 else { return nil }
      guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else { return (.escape, 1) }
      guard bytes.count >= 3 else { return nil }
      switch bytes[2] {
      case UInt8(ascii: "A"): return (.up, 3)
      case UInt8(ascii: "B"): return (.down, 3)
      default: return (.escape, 3)
      }
    case 0x20..<0x7F: return (.character(Character(Unicode.Scalar(first))), 1)
    default:
      // A UTF-8 character: its bytes together.
      let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
      guard bytes.count >= length else { return nil }
      let text = String(decoding: bytes.prefix(length), as: UTF8.self)
      return (text.first.map { .character($0) } ?? .escape, length)
    }
  }
}
