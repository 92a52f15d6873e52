import Foundation
import Testing

/// Waits at the prompt: a deadlock named, and Ctrl-C stopping a `send`, a `wait` or a `sleep`.
extension InteractiveTests {
  /// On the virtual clock nothing can ever take the value: a named deadlock, and the script goes on.
  @Test func aSendNothingCanTakeIsADeadlockOnTheVirtualClock() throws {
    let path = try script("channel c of: Int | take 1 | print &\nsend c 1 2\nfrom \"after\" | print\n")
    let terminal = try Terminal(arguments: ["--virtual-time", path])
    try terminal.expect(
      "error: send: deadlock: nothing can take 2 from channel 'c': every job waits and no timer is due\n")
    try terminal.expect("after\n")
    try terminal.expectExit(1)
  }

  @Test func ctrlCStopsASendAtThePrompt() throws {
    let terminal = try Terminal(arguments: [])
    try terminal.expect("pipesh[0]> ")
    terminal.type("send c 5\r")
    try terminal.expect("send: waiting for a consumer of 'c' to take 5 (Ctrl-C stops)\n")
    terminal.type("\u{3}")
    try terminal.expect("send: stopped, no consumer took 5\n")
    try terminal.expect("pipesh[0]> ")
    terminal.type("clock virtual\r")
    try terminal.expect("pipesh[0]> ")
    terminal.type("send d 7\r")
    try terminal.expect(
      "error: send: deadlock: nothing can take 7 from channel 'd': every job waits and no timer is due\n")
    try terminal.expect("pipesh[0]> ")
    terminal.type("wait\r")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// Ctrl-C during `wait` and `sleep` stops the waiting, says so on a line of its own, and gives
  /// a fresh prompt; the job goes on.
  @Test func ctrlCDuringWaitAndSleepSaysWhatStopped() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("timer 1 | drain &\r")
    try terminal.expect("pipesh[1]> ")
    terminal.type("wait\r")
    try terminal.expect("wait\n")
    try terminal.interrupt(until: "\nwait: stopped (Ctrl-C); the job goes on\n")
    try terminal.expect("pipesh[1]> ")
    terminal.type("sleep 1h\r")
    try terminal.expect("sleep 1h\n")
    try terminal.interrupt(until: "\nsleep: stopped (Ctrl-C)\n")
    try terminal.expect("pipesh[1]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }
}
