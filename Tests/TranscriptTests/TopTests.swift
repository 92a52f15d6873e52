import Foundation
import Testing

/// `top` in a pseudo-terminal: a full screen of the running jobs that moves on, answers its keys,
/// follows a resize, and gives the screen back on `q` and on Ctrl-C; not on a terminal, one
/// snapshot.
@Suite("top, the live view")
struct TopTests {
  static let enter = "\u{1B}[?1049h"
  static let leave = "\u{1B}[?1049l"

  /// On the virtual clock a frame is a virtual second: the clock in the header moves on and the
  /// rates are the jobs' own; the keys expand, sort and filter; `q` gives the screen back.
  @Test func aLiveScreenOnTheVirtualClock() throws {
    let terminal = try Terminal(arguments: ["--virtual-time"])
    try terminal.expect("pipesh[0]> ")
    try terminal.enter("zip(timer 0.1 | buffer 2 policy: newest, timer 1) | drain &")
    try terminal.enter("channel orders of: Int | map { $0 + 1 } | print &")
    terminal.type("top\r")
    try terminal.expect(Self.enter)
    try terminal.expect("pipesh top · 2 running · ")
    try terminal.expect("ID  STATE    TASKS  TIME")
    try terminal.expect("RATE/s  LAST  WAITS ON")
    // A frame later the zip has a rate (about a pair a second: a tick at a frame's instant may
    // count in either frame).
    try terminal.expectLine("a rate for job 1") { line in
      let cells = line.split(separator: " ", omittingEmptySubsequences: true)
      guard cells.count > 6, cells[1] == "1!", let rate = Double(cells[6]) else { return false }
      return rate > 0.5 && rate < 1.5
    }
    try terminal.expect("! 1: a background drain of an endless source")
    try terminal.expect("! 1: buffer 2 policy: newest has dropped at least")
    terminal.type("e")
    try terminal.expect("the clock")
    try terminal.expect("a send")
    terminal.type("/orders\r")
    try terminal.expect("· filter: orders")
    try terminal.expect("channel orders of: Int")
    // Narrower, the lines are cut to the new width: the keys' line too.
    terminal.resize(columns: 60, rows: 12)
    let help = "q quit · ↑↓ select · enter expand · e/c all · 1-5 sort (again: reverse) · / filter"
    try terminal.expect(String(help.prefix(59)) + "…")
    try Self.quit(terminal)
  }

  /// What the nodes wait on, watched: a stalled `into` on a consumer, a share on its slowest reader,
  /// the share's reader that a `zip` is not asking on its consumer; with their warnings.
  @Test func whatNodesWaitOnAndTheirWarnings() throws {
    let terminal = try Terminal(arguments: ["--virtual-time"])
    terminal.resize(columns: 110, rows: 40)
    try terminal.expect("pipesh[0]> ")
    try terminal.enter("from 1 2 3 | into stalled &")
    try terminal.enter("let ticks = timer 1 | share")
    try terminal.enter("ticks | map { $0 * 2 } | print &")
    try terminal.enter("zip(ticks, timer 5) | drain &")
    terminal.type("top\r")
    try terminal.expect(Self.enter)
    try terminal.expect("pipesh top · 3 running · ")
    terminal.type("e")
    try terminal.expect("a consumer (")
    try terminal.expect("its slowest reader (")
    try terminal.expect("its consumer to ask")
    try terminal.expect("! 1: into stalled has waited")
    try terminal.expect("! 2, 3: share holds")
    try Self.quit(terminal)
  }

  /// `q` leaves top and gives the screen back; then the jobs are cancelled and the shell ends.
  static func quit(_ terminal: Terminal) throws {
    terminal.type("q")
    try terminal.expect(Self.leave)
    terminal.type("cancel all\r")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// On the real clock, Ctrl-C leaves top (not the shell) and gives the screen back; what the job
  /// printed while top showed comes after it.
  @Test func ctrlCLeavesTopOnTheRealClock() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    try terminal.enter("timer 0.2 | map { \"tick \\($0)\" } | print &")
    terminal.type("top\r")
    try terminal.expect(Self.enter)
    try terminal.expect("(real clock)")
    try terminal.expect("timer 0.2 | map")
    terminal.type("\u{3}")
    try terminal.expect(Self.leave)
    try terminal.expect("[1] tick ")
    terminal.type("cancel 1\r")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }
}
